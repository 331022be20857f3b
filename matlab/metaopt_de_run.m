function [value, x, result] = metaopt_de_run(h, stop)
% METAOPT_DE_RUN  Runs island DE until a stop condition holds (mode 'de-run').
%   stop: a number of generations, or a struct with any of maxGenerations, maxEvaluations (of
%   this call), target (stop once the best value is at most target) and timeLimit (seconds);
%   generations, evaluations and time_limit are aliases; checkpoint (a file the run writes its
%   whole state to when it ends and every checkpointEvery seconds) and resume (a checkpoint
%   file whose run this one continues). Compatibility wrapper ([value, x,
%   result]); metaopt.DE's run returns [x, fval, info].
%   value: the best value over all islands; x: its vector; result: island (1-based),
%   generations and evaluations since metaopt_de_init, seconds of this call, violation (of
%   the best point under constraints: 0 feasible; metaopt_de_init's opts.constraints), stoppedBy
%   (the library's word: 'budget' (the generations ran), 'evaluations', 'target', 'time_limit',
%   or 'interrupted': stopped by a stop
%   request from elsewhere, with the warning metaopt:interrupted). Ctrl-C raises
%   metaopt:interrupted; the instance keeps its best so far (metaopt_de_bests, metaopt_de_best).
  if ~isstruct(stop)
    stop = struct('generations', stop);
  end
  [value, x, island, generations, evaluations, seconds, stoppedBy, ~, ~, violation] = metaopt_mex('de-run', h, stop);
  result = struct('value', value, 'x', x, 'island', island, 'generations', generations, ...
                  'evaluations', evaluations, 'seconds', seconds, 'stoppedBy', stoppedBy, ...
                  'violation', violation);
end
