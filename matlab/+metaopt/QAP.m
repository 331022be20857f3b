classdef QAP < metaopt.Instance
% METAOPT.QAP  A quadratic assignment problem with its solvers (HC12 over the qapswap2
%   encoding, and the robust tabu search); frees its library instance itself when it goes.
%
%   q = metaopt.QAP(DF)             DF: n x n (or n x n x nSlices) int32, int64, uint32,
%                                   uint64, single or double; flow below the diagonal, distance
%                                   above (the thesis's combined matrix)
%   q = metaopt.QAP(path)           a QAPLIB .dat file (int64; a BKS.csv beside it gives the gap)
%   q = metaopt.QAP(..., name, value) or metaopt.QAP(..., opts): swaps (16), maskOrder (2),
%                                   startBit (0), bitLength (0 = to the end)
%
%   [x, fval, info] = q.solve(opts)       iterated HC12: runs (100; 0 = none), timeLimit, seed,
%                                         start ('random', 'identity', 'glb', 'hrw', 'pe', 'ab' or a permutation),
%                                         restart ('rebase', 'random'), target
%   [x, fval, info] = q.tabuSearch(opts)  robust tabu search: chains (32), iterations (100000
%                                         per chain), timeLimit, target, seed, tenure, eliteSize,
%                                         stagnation, perturbation, launchIterations, cpu
%   [x, fval, info] = q.run(initOrder, initKernel)  one HC12 run to a local optimum
%   q.setTabuList(maxLength)
%
%   x is the permutation (1-based: facility i at location x(i)), fval its cost, info the rest
%   (runs, iterations, evaluations, seconds, precision: the element type, stopReason: the
%   library's word, 'target', 'time_limit', 'budget' (the runs, the iterations) or 'interrupted';
%   run's is 'localOptimum', the end of one climb). Ctrl-C stops solve and tabuSearch
%   with the error metaopt:interrupted (its message gives the best cost so far).
%   Options are lowerCamelCase; time_limit and other snake_case names are aliases.

  properties (SetAccess = private)
    N = 0;            % problem size (nElements)
    Swaps = 0;        % swaps of the qapswap2 encoding
    ElementType = ''; % the element type of the data ('int64' from a file)
  end

  methods
    function obj = QAP(source, varargin)
      o = metaopt.Instance.options(varargin{:});
      metaopt.Instance.check_known(o, {'swaps', 'maskOrder', 'startBit', 'bitLength'}, 'metaopt.QAP');
      v = metaopt.Instance.take(o, {'swaps', 'maskOrder', 'startBit', 'bitLength'}, {16, 2, 0, 0});
      [swaps, maskOrder, startBit, bitLength] = v{:};
      if ischar(source)
        obj.Token = metaopt_mex('params-file', source, swaps, maskOrder, startBit, bitLength);
        obj.ElementType = 'int64';
      else
        if ndims(source) > 3 || size(source, 1) ~= size(source, 2)
          error('metaopt:badArgument', 'DF must be a square matrix (or an n x n x nSlices array), got %s', mat2str(size(source)));
        end
        obj.Token = metaopt_mex('params', swaps, size(source, 1), [], source, size(source, 3), maskOrder, startBit, bitLength);
        obj.ElementType = class(source);
      end
      s = metaopt_mex('info', obj.Token);
      obj.N = s.nElements;
      obj.Swaps = s.swaps;
    end

    function [x, fval, info] = solve(obj, varargin)
      % SOLVE  Iterated HC12: runs from a start, rebasing on the best or restarting, until
      %   runs (default 100; 0 = no limit), timeLimit (seconds) or target ends it.
      o = metaopt.Instance.options(varargin{:});
      r = metaopt_mex('solve', obj.token(), o);
      [x, fval, info] = metaopt.QAP.split(r, obj.ElementType);
    end

    function [x, fval, info] = tabuSearch(obj, varargin)
      % TABUSEARCH  The robust tabu search (Taillard): chains independent chains of iterations
      %   iterations each (with only timeLimit: no count), stopping at target.
      o = metaopt.Instance.options(varargin{:});
      r = metaopt_mex('qap-ts-solve', obj.token(), o);
      [x, fval, info] = metaopt.QAP.split(r, obj.ElementType);
    end

    function [x, fval, info] = run(obj, initOrder, initKernel)
      % RUN  One HC12 run from base permutation initOrder (1-based, [] identity) and string
      %   initKernel ([] zeros) to a local optimum; info.kernel continues it: q.run(initOrder,
      %   info.kernel).
      if nargin < 2, initOrder = []; end
      if nargin < 3, initKernel = []; end
      [fval, x, K, it] = metaopt_mex('run', obj.token(), initOrder, initKernel);
      info = struct('kernel', K, 'iterations', it, 'runs', 1, 'precision', obj.ElementType, ...
                    'stopReason', 'localOptimum');
    end

    function setTabuList(obj, maxLength)
      % SETTABULIST  A tabu list of maxLength strings for run (0 removes it).
      metaopt_mex('set-tabu-list', obj.token(), maxLength);
    end
  end

  methods (Static, Hidden)
    function [x, fval, info] = split(r, elementType)
      x = r.permutation;
      fval = r.cost;
      info = rmfield(r, {'permutation', 'cost'});
      info.precision = elementType;
    end
  end
end
