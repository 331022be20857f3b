function result = metaopt_qap_solve(h, opts)
% METAOPT_QAP_SOLVE  The iterated solve: runs from a start, rebasing or restarting, until
%   opts.runs (default 100; 0 = no limit), opts.timeLimit (seconds) or opts.target ends it.
%   Also opts.seed, opts.start ('random', 'identity', 'glb', 'hrw', 'pe', 'ab' (projected from
%   a lower bound: thesis Table 5) or a 1-based permutation) and
%   opts.restart ('rebase' or 'random'). result: cost, permutation (1-based), runs,
%   iterations, evaluations, seconds, targetReached, bks and gapPercent (NaN without a BKS).
%   Checkpoints: opts.checkpoint (a file the solve writes its whole state to, between runs,
%   when it ends and every opts.checkpointEvery seconds) and opts.resume (such a file's path,
%   or the bytes of metaopt_qap_save_state): the solve continues the saved one, whose options
%   it must have (a larger opts.runs or opts.timeLimit).
  if nargin < 2, opts = struct(); end
  result = metaopt_mex('solve', h, opts);
end
