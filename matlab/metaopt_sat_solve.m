function result = metaopt_sat_solve(h, opts)
% METAOPT_SAT_SOLVE  Search for a model. opts (optional): method ('probsat', the default, many
%   probSAT walks; 'walksat'; 'hc12'), timeLimit (10 s), seed; the walks: walks (0: the
%   device's count), cb, eps (probSAT's break function; 0: its SC13 values), noise (WalkSAT,
%   0.567), restartFlips, flipsPerLaunch, maxFlips (per walk), cpu (the CPU backend), start
%   (a warm start: one assignment per row, count x numVars; one row starts every walk),
%   checkpoint (a file the walks' whole state is written to when the search ends and every
%   checkpointEvery seconds), resume (such a file: the search goes on as if it had never
%   stopped, with the same options; maxFlips and timeLimit may be larger); HC12:
%   runs, maskOrder, tabuLength, tabuMaxIterations, tabuMaxNoImprove, tenure. result:
%   satisfiable, model (logical per variable, [] without one), literals, assignment (the best
%   seen), bestUnsatisfied, method, walks, flips, restarts, flipsPerSecond (the walks), runs,
%   iterations, evaluations (HC12), seconds, stopReason.
  if nargin < 2, opts = struct(); end
  result = metaopt_mex('sat-solve', h, opts);
end
