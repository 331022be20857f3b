function result = metaopt_bh_solve(h, opts)
% METAOPT_BH_SOLVE  Runs the chains of metaopt_bh_create until a stop: opts.maxSteps (steps of
%   every chain since the start), opts.maxEvaluations, opts.target, opts.timeLimit (seconds
%   from this call, the start at opts.x0 included; at least one of these), Ctrl-C (metaopt:interrupted, the chains kept). opts.x0 starts every chain anew at a
%   point (needed before the first solve); without it the solve continues. opts.checkpoint (a
%   file the solve writes its whole state to when it ends and every opts.checkpointEvery
%   seconds) and opts.resume (such a file, or the bytes of metaopt_bh_save_state: the solve
%   continues as if it had never stopped). result: value, x, steps, launches, evaluations,
%   seconds, secondsToBest, violation (of x under metaopt_bh_create's constraints: 0
%   feasible; 0 without), stopReason ('budget', 'evaluations', 'target', 'time_limit',
%   'interrupted'), precision.
  if nargin < 2, opts = struct(); end
  result = metaopt_mex('bh-solve', h, opts);
end
