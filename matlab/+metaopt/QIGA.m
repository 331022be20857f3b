classdef QIGA < metaopt.Instance
% METAOPT.QIGA  QIGA on a 0/1 knapsack instance, which it owns and frees itself when it goes.
%
%   q = metaopt.QIGA(path)                       an instance file
%   q = metaopt.QIGA(weights, profits, capacity) real arrays
%   q = metaopt.QIGA('generate', kind, items, range, seed)   a seeded random instance
%   r = q.run(opts)       opts as metaopt_qiga_run: populations, individuals, generations,
%       table, popsPerTable, poleSigns, repair, seed, target, timeLimit, devices, cpu, start,
%       checkpoint, checkpointEvery, resume, ...
%   o = q.optimum()       the exact optimum (value, weight, bits, items)
%   e = q.evaluate(bits)  profit, weight, feasible
%   d = q.data()          n, weights, profits, capacity, scale, name

  properties (SetAccess = private)
    N = 0;
  end

  methods
    function obj = QIGA(a, varargin)
      if ischar(a) && strcmp(a, 'generate')
        obj.Token = metaopt_mex('knapsack-generate', varargin{:});
      elseif isempty(varargin)
        obj.Token = metaopt_mex('knapsack-file', a);
      else
        obj.Token = metaopt_mex('knapsack-arrays', a, varargin{:});
      end
      s = metaopt_mex('info', obj.Token);
      obj.N = s.n;
    end

    function r = run(obj, varargin)
      % RUN  Runs QIGA's populations (see metaopt_qiga_run).
      r = metaopt_mex('qiga-run', obj.token(), metaopt.Instance.options(varargin{:}));
    end

    function o = optimum(obj)
      o = metaopt_mex('knapsack-optimum', obj.token());
    end

    function e = evaluate(obj, bits)
      e = metaopt_mex('knapsack-evaluate', obj.token(), bits);
    end

    function d = data(obj)
      d = metaopt_mex('knapsack-data', obj.token());
    end
  end
end
