classdef BatchDE < metaopt.Instance
% METAOPT.BATCHDE  Many independent DE problems in one batch (the library's batched DE: one
% fused kernel runs K generations of every problem per launch; or the CPU backend). It owns its
% gateway instance ('bde-create') and frees it when it goes.
%
%   b = metaopt.BatchDE(problems, opts)  a struct array, one element per problem, with the
%       fields function (a catalogue name; or source: OpenCL C text, and data), dims, lower,
%       upper (a scalar or one per dimension), members, f, cr, mutation, bounds, seed,
%       generations, target, integrality (one flag or one per dimension), constraints ([NG NH]
%       of a source's constraints function, Deb's rules) and eqTol (absent or []: the defaults
%       50 members, F 0.5, CR 0.9, DE/rand/1, sat, seed 1, 1000 generations, no target,
%       continuous, unconstrained); opts: cpu, precision ('single', 'double'),
%       generationsPerLaunch, placement ('auto', 'local', 'global')
%   b = metaopt.BatchDE(fun, dims, lower, upper, name, value, ...)   the same from per-problem
%       values: every name (members, f, cr, mutation, bounds, seed, generations, target) and
%       fun and dims take one value for all problems or one per problem (a vector, or a cell
%       array for names and per-problem bounds); 'count', B sets the number of problems
%       (default: the longest given); a scalar seed S gives problem i the seed S + i - 1; the
%       names cpu, precision, generationsPerLaunch and placement are the options above.
%   r = b.run(opts)   opts: timeLimit, checkpoint (a file the run writes every problem's state
%       to when it ends and every checkpointEvery seconds), resume (a checkpoint file of a batch
%       of the same problems and options: the run continues it). Runs until every problem
%       reached its target or generations, or the time limit; called again it goes on. r.bestValue, r.generations,
%       r.violation (column vectors), r.stopReason (a cell: 'target', 'budget' (its generations ran),
%       'time_limit', 'interrupted'), r.best (a cell of row vectors), r.precision, r.seconds.

  properties (SetAccess = private)
    Problems = struct([]);
  end

  methods
    function obj = BatchDE(fun, dims, lower, upper, varargin)
      if nargin >= 1 && isstruct(fun)
        if nargin > 2
          error('metaopt:badArgument', 'metaopt.BatchDE(problems, opts): at most one opts struct');
        end
        obj.Problems = fun(:);
        if nargin == 2
          opts = dims;
        else
          opts = struct();
        end
        obj.Token = metaopt_mex('bde-create', obj.Problems, opts);
        return;
      end
      if nargin < 4
        error('metaopt:badArgument', 'metaopt.BatchDE(problems) or metaopt.BatchDE(fun, dims, lower, upper, ...)');
      end
      if mod(numel(varargin), 2) ~= 0
        error('metaopt:badArgument', 'options come in name/value pairs');
      end
      names = {'members', 'f', 'cr', 'mutation', 'bounds', 'seed', 'generations', 'target'};
      create = {'cpu', 'precision', 'generationsPerLaunch', 'placement'};
      vals = struct();
      opts = struct();
      count = [];
      for k = 1:2:numel(varargin)
        name = varargin{k};
        if ~ischar(name)
          error('metaopt:badOption', 'option %d is not a name', (k + 1) / 2);
        end
        if strcmp(name, 'count')
          count = varargin{k + 1};
        elseif strcmp(name, 'CR')
          vals.cr = varargin{k + 1};
        elseif any(strcmp(name, names))
          vals.(name) = varargin{k + 1};
        elseif any(strcmp(name, create))
          opts.(name) = varargin{k + 1};
        else
          error('metaopt:badOption', 'unknown option ''%s''; the options are count, %s, %s', name, strjoin(names, ', '), ...
                strjoin(create, ', '));
        end
      end
      lens = [metaopt.BatchDE.len(fun), metaopt.BatchDE.len(dims)];
      given = fieldnames(vals);
      for k = 1:numel(given)
        lens(end + 1) = metaopt.BatchDE.len(vals.(given{k})); %#ok<AGROW>
      end
      if iscell(lower), lens(end + 1) = numel(lower); end
      if iscell(upper), lens(end + 1) = numel(upper); end
      if isempty(count)
        count = max([1, lens]);
      end
      p = struct('function', cell(count, 1));
      for i = 1:count
        p(i).function = metaopt.BatchDE.pick(fun, i, count, 'fun');
        p(i).dims = metaopt.BatchDE.pick(dims, i, count, 'dims');
        p(i).lower = metaopt.BatchDE.bound(lower, i, count, 'lower');
        p(i).upper = metaopt.BatchDE.bound(upper, i, count, 'upper');
        for k = 1:numel(given)
          p(i).(given{k}) = metaopt.BatchDE.pick(vals.(given{k}), i, count, given{k});
        end
        if isfield(vals, 'seed') && ~iscell(vals.seed) && numel(vals.seed) == 1
          p(i).seed = vals.seed + i - 1;
        end
      end
      obj.Problems = p;
      obj.Token = metaopt_mex('bde-create', p, opts);
    end

    function r = run(obj, varargin)
      % RUN  Runs every problem until its target or generations, or opts.timeLimit; again: goes on.
      r = metaopt_mex('bde-run', obj.token(), metaopt.Instance.options(varargin{:}));
    end

    function n = count(obj)
      n = numel(obj.Problems);
    end
  end

  methods (Static, Access = private)
    function n = len(v)
      if iscell(v)
        n = numel(v);
      elseif ischar(v) || numel(v) <= 1
        n = 1;
      else
        n = numel(v);
      end
    end

    function x = pick(v, i, count, name)
      n = metaopt.BatchDE.len(v);
      if n ~= 1 && n ~= count
        error('metaopt:badArgument', '%s has %d values; expected 1 or one per problem (%d)', name, n, count);
      end
      if n == 1
        if iscell(v), x = v{1}; else, x = v; end
      elseif iscell(v)
        x = v{i};
      else
        x = v(i);
      end
    end

    function x = bound(v, i, count, name)
      % a scalar, one vector for all, or a cell of per-problem scalars or vectors
      if iscell(v)
        if numel(v) ~= 1 && numel(v) ~= count
          error('metaopt:badArgument', '%s has %d cells; expected 1 or one per problem (%d)', name, numel(v), count);
        end
        x = v{min(i, numel(v))};
      else
        x = v;
      end
    end
  end
end
