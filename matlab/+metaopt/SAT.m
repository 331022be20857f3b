classdef SAT < metaopt.Instance
% METAOPT.SAT  A CNF formula and its HC12 local search; frees its library instance itself when
%   it goes.
%
%   s = metaopt.SAT(path)              a DIMACS CNF file
%   s = metaopt.SAT(numVars, clauses)  a cell array of literal vectors ({[1 -2], [2 3]}) or one
%                                      vector of DIMACS literals, each clause ended by 0
%   [x, fval, info] = s.solve(opts)    opts: method ('probsat', the default; 'walksat';
%       'hc12'), timeLimit (10 s), seed; the walks' walks, cb, eps, noise, restartFlips,
%       flipsPerLaunch, maxFlips, cpu, start, checkpoint, checkpointEvery, resume; HC12's runs, maskOrder, tabuLength, tabuMaxIterations,
%       tabuMaxNoImprove, tenure (metaopt_sat_solve). x: the assignment (logical, 1 x numVars;
%       a model when info.satisfiable), fval: its unsatisfied clauses (0 for a model), info:
%       satisfiable, model, literals, method, walks, flips, restarts, flipsPerSecond, runs,
%       iterations, evaluations, seconds, stopReason (the library's word: 'target' (a model),
%       'budget' (HC12's runs, the walks' flips), 'time_limit' or 'interrupted'), precision
%       ('exact': clause counts). Ctrl-C stops
%       it with the error metaopt:interrupted.
%   n = s.evaluate(assignments, useCpu)  satisfied clauses of each row (count x numVars)

  properties (SetAccess = private)
    NumVars = 0;
    NumClauses = 0;
  end

  methods
    function obj = SAT(a, clauses)
      if nargin < 2
        obj.Token = metaopt_mex('sat-parse', a);
      else
        obj.Token = metaopt_mex('sat-clauses', a, clauses);
      end
      s = metaopt_mex('info', obj.Token);
      obj.NumVars = s.numVars;
      obj.NumClauses = s.numClauses;
    end

    function [x, fval, info] = solve(obj, varargin)
      % SOLVE  probSAT (default) or WalkSAT walks, or HC12, for a model (see metaopt.SAT).
      o = metaopt.Instance.options(varargin{:});
      r = metaopt_mex('sat-solve', obj.token(), o);
      x = r.assignment;
      fval = r.bestUnsatisfied;
      info = rmfield(r, {'assignment', 'bestUnsatisfied'});
      info.precision = 'exact';
    end

    function n = evaluate(obj, assignments, useCpu)
      % EVALUATE  Satisfied clauses of each row of assignments (count x numVars, logical).
      if nargin < 3, useCpu = false; end
      n = metaopt_mex('sat-evaluate', obj.token(), assignments, useCpu);
    end
  end
end
