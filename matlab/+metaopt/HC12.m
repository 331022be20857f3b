classdef HC12 < metaopt.Instance
% METAOPT.HC12  General HC12 (the thesis's Table 1) over nParam parameters of nBitParam bits on
%   intervals dodParam; frees its library instance itself when it goes.
%
%   h = metaopt.HC12(nParam, nBitParam, dodParam)  nBitParam one value or one per parameter,
%                                   dodParam [a b] or an nParam x 2 matrix of intervals
%   h = metaopt.HC12(..., name, value) or (..., opts): domain ('real', 'integer': the objective
%                                   reads the integers, 'binary': the bit strings), precision
%                                   ('double' where the device has fp64, else 'single';
%                                   'single' on request), maskOrder (2), startBit (0),
%                                   bitLength (0)
%
%   [x, fval, info] = h.run(fun, opts)
%     fun: a function handle or m-function name taking the rows x nParam matrix of one
%     iteration and returning its rows values; '@NAME' a catalogue function ('@F1');
%     '@FILE.cl' OpenCL C. opts: runs (1), seed, coding ('GC', 'BC'), start ([] random,
%     'bit-zeros' or nParam reals), sense ('min', 'max'), taboo (false), limitRows (100),
%     activationLimit, maxIterations, aspiration, tabuIterations, noImprove, timeLimit (seconds).
%     x: the best point (reals, or integers for 'integer' and 'binary'), fval its value, info:
%     string, integers, reals, runs, iterations, evaluations, seconds, runValues,
%     runIterations, objectiveCalls, precision, stopReason (the library's word: 'budget' (the
%     runs ran), 'time_limit', or 'interrupted': a stop request from elsewhere). Ctrl-C on a
%     device objective stops it with metaopt:interrupted.
%   h.setTabuList(n), h.funcData(funName, data), h.funcDataClean(funName), h.profilerOn(),
%   h.profilerOutput(), h.kernelVerbose(tf)

  properties (SetAccess = private)
    NParam = 0;      % number of parameters
    Domain = 'real'; % what the objective reads: 'real', 'integer' or 'binary'
  end

  methods
    function obj = HC12(nParam, nBitParam, dodParam, varargin)
      o = metaopt.Instance.options(varargin{:});
      names = {'domain', 'precision', 'maskOrder', 'startBit', 'bitLength'};
      metaopt.Instance.check_known(o, names, 'metaopt.HC12');
      v = metaopt.Instance.take(o, names, {'real', '', 2, 0, 0});
      [domain, precision, maskOrder, startBit, bitLength] = v{:};
      words = {};
      switch domain
        case 'real'
        case 'integer', words = {'noR'};
        case 'binary', words = {'noR', 'binary'};
        otherwise, error('metaopt:badArgument', 'domain must be ''real'', ''integer'' or ''binary'', got %s', domain);
      end
      if ~isempty(precision)
        if ~any(strcmp(precision, {'single', 'double'}))
          error('metaopt:badArgument', 'precision must be ''single'' or ''double''');
        end
        words{end + 1} = precision;
      end
      mode = 'params';
      if ~isempty(words)
        mode = [mode ':' strjoin(words, ',')];
      end
      obj.Token = metaopt_mex(mode, nParam, nBitParam, dodParam, maskOrder, startBit, bitLength);
      obj.NParam = nParam;
      obj.Domain = domain;
    end

    function [x, fval, info] = run(obj, fun, varargin)
      % RUN  HC12 runs of objective fun (see metaopt.HC12); [x, fval, info].
      o = metaopt.Instance.options(varargin{:});
      own = {'coding', 'runs', 'start', 'sense', 'taboo', 'activationLimit', 'limitRows'};
      passed = {'seed', 'maxIterations', 'aspiration', 'tabuIterations', 'noImprove', 'timeLimit'};
      metaopt.Instance.check_known(o, [own passed], 'metaopt.HC12.run');
      [v, rest] = metaopt.Instance.take(o, own, {'GC', 1, [], 'min', false, [], []});
      [coding, runs, start, sense, taboo, activationLimit, limitRows] = v{:};
      mode = 'run';
      if taboo
        mode = 'run:taboo';
      end
      args = {obj.token(), coding, runs, start, fun, sense, activationLimit, limitRows};
      f = fieldnames(rest);
      for k = 1:numel(f)
        args(end + 1:end + 2) = {f{k}, rest.(f{k})};
      end
      [fval, x, r] = metaopt_mex(mode, args{:});
      info = rmfield(r, 'value');
      info.runs = numel(r.runValues);
    end

    function setTabuList(obj, maxLength)
      % SETTABULIST  A tabu list of maxLength strings (0 removes it), used by run with taboo.
      metaopt_mex('set-tabu-list', obj.token(), maxLength);
    end

    function funcData(obj, funName, data)
      % FUNCDATA  The data buffer (the bytes of the numeric array data) of the OpenCL C
      %   objective '@FILE.cl'.
      metaopt_mex('func-data', obj.token(), funName, data);
    end

    function funcDataClean(obj, funName)
      metaopt_mex('func-data-clean', obj.token(), funName);
    end

    function kernelVerbose(obj, verbose)
      metaopt_mex('kernel-verbose', obj.token(), verbose);
    end

    function profilerOn(obj)
      metaopt_mex('profiler-on', obj.token());
    end

    function text = profilerOutput(obj)
      text = metaopt_mex('profiler-output', obj.token());
    end
  end
end
