function result = metaopt_sat_solve(h, opts)
% METAOPT_SAT_SOLVE  HC12 local search for a model. opts (optional): timeLimit (10 s), runs,
%   seed, maskOrder, tabuLength, tabuMaxIterations, tabuMaxNoImprove, tenure. result:
%   satisfiable, model (logical per variable, [] without one), literals, assignment (the best
%   seen), bestUnsatisfied, runs, iterations, evaluations, seconds.
  if nargin < 2, opts = struct(); end
  result = metaopt_mex('sat-solve', h, opts);
end
