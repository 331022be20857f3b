classdef DE < metaopt.Instance
% METAOPT.DE  Island differential evolution (the thesis's DEMultiPop, 5.2.1); frees its
%   library instance itself when it goes.
%
%   d = metaopt.DE(islands, members, dims, limits)  limits [a b] or a dims x 2 matrix
%   d = metaopt.DE(..., name, value) or (..., opts): bounds ('COTN', 'sat', 'mir', 'tor',
%       'HVB', 'uni' or a cell array of dims names), fCoefsMode ('linspace', 'const_min',
%       its alias 'const', or 'dither': F drawn in [fCoefsMin, fCoefsMax) each generation), crCoefsMode ('const', the thesis's only mode), selection ('ties':
%       a trial replaces its target when f(trial) <= f(target), the default; 'strict': only
%       when f(trial) < f(target), the thesis's DEMULTIPOP_FITNESS_COPY_BETTER_Y2X),
%       fCoefsMin (0.1), fCoefsMax (1.5), cr (0.5, or one per island), initRngSeed (123),
%       mutationRngSeed (345), crossoverRngSeed (457), migrationRngSeed (581), sharedRandom,
%       fused (true: the fused kernel between migrations on a device; false: a set of
%       launches per generation), cpu (the CPU backend), precision ('double' where the backend has fp64, else 'single';
%       'single' on request), fitnessPrecision ('single' or 'double': the type of the fitness
%       values, the thesis's FPf of DEMultiPop<FP, FPf>; unset: the storage precision; the
%       objective computes in the storage precision, its value is rounded to this one, stored
%       and compared in it). The thesis's names (F_coefs_mode, F_coefs_min, CR_coefs_mode,
%       CR_coef_const, CR, init_rng_seed, ...) are aliases.
%   d.init(objective, opts)  the objective (a function handle or m-function name, called with
%       the (islands * members) x dims trials of a generation; '@NAME' a catalogue function;
%       '@FILE.cl' or struct('source', code, 'name', label) OpenCL C) and mutation
%       ('DE/rand/1'), migration ('None'), period (10), and any option above but bounds, cpu,
%       precision and fitnessPrecision (the thesis's optionsUpdate); makes and evaluates the first populations;
%       warm starts: init (a matrix of points, one per row: they replace the first members,
%       island by island; islands x members rows: the whole population; clipped to the limits),
%       x0 (one point within the limits: the first member, as scipy's x0); constraints:
%       constraints [NG NH] (an OpenCL source's constraints function: NG inequalities g <= 0,
%       then NH equalities |h| <= eqTol) or violation (for an m-function objective: a function
%       returning each row's violation, 0 feasible), eqTol (1e-4), constraintHandling ('deb',
%       'epsilon' or [theta tc cp]), repair (a source's: a probability or [probability rounds]);
%       the run's info.violation is then the best point's violation
%   [x, fval, info] = d.run(stop)  a number of generations, or a struct or name/value pairs of
%       maxGenerations, maxEvaluations, target, timeLimit; checkpoint (a file the run writes its
%       whole state to when it ends and every checkpointEvery seconds), resume (a checkpoint
%       file: on an object made and initialised alike, the run continues the saved one, its
%       generations, evaluations and timeLimit counting from that run's start). info: island, generations and
%       evaluations since init, seconds, stopReason (the library's word of the condition that
%       held: 'budget' (the generations ran), 'evaluations', 'target', 'time_limit', or
%       'interrupted': a stop request from elsewhere, with the warning metaopt:interrupted),
%       precision (the library's: 'double' or 'single'), fitnessPrecision (likewise). Ctrl-C stops it with the error
%       metaopt:interrupted; the object keeps the best so far: d.bests(), d.best(island)
%   g = d.iterate()  one generation; d.bests(), d.best(island), d.member(island, m),
%   d.funcData(data), d.printBests() (the thesis's printBests: every island's best value and
%   the best solution, printed)

  properties (SetAccess = private)
    Islands = 0;
    Members = 0;
    Dims = 0;
  end

  methods
    function obj = DE(islands, members, dims, limits, varargin)
      o = metaopt.Instance.options(varargin{:});
      [v, rest] = metaopt.Instance.take(o, {'bounds'}, {'COTN'});
      obj.Token = metaopt_mex('de-params', islands, members, dims, limits, v{1}, rest);
      obj.Islands = islands;
      obj.Members = members;
      obj.Dims = dims;
    end

    function init(obj, objective, varargin)
      % INIT  Sets the objective and strategies and makes the first populations (see metaopt.DE).
      o = metaopt.Instance.options(varargin{:});
      [v, rest] = metaopt.Instance.take(o, {'mutation', 'migration', 'period'}, {[], [], []});
      metaopt_mex('de-init', obj.token(), objective, v{1}, v{2}, v{3}, rest);
    end

    function [x, fval, info] = run(obj, varargin)
      % RUN  Runs until a stop condition holds; [x, fval, info] (see metaopt.DE).
      if numel(varargin) == 1 && isnumeric(varargin{1})
        stop = struct('maxGenerations', varargin{1});
      else
        stop = metaopt.Instance.options(varargin{:});
      end
      [fval, x, island, generations, evaluations, seconds, why, precision, fitness, violation] = ...
          metaopt_mex('de-run', obj.token(), stop);
      info = struct('island', island, 'generations', generations, 'evaluations', evaluations, ...
                    'seconds', seconds, 'stopReason', why, 'precision', precision, ...
                    'fitnessPrecision', fitness, 'violation', violation);
    end

    function generation = iterate(obj)
      % ITERATE  One generation; returns the generation number since init.
      generation = metaopt_mex('de-iteration', obj.token());
    end

    function b = bests(obj)
      % BESTS  The best value of every island (1 x islands).
      b = metaopt_mex('de-bests', obj.token());
    end

    function printBests(obj)
      % PRINTBESTS  Prints the best value of every island and the best solution over all (the
      %   thesis's printBests; see metaopt_de_print_bests).
      metaopt_de_print_bests(obj.token());
    end

    function x = best(obj, island)
      % BEST  The best member of island (1-based), 1 x dims.
      x = metaopt_mex('de-best', obj.token(), island);
    end

    function x = member(obj, island, m)
      % MEMBER  Member m of island (both 1-based), 1 x dims.
      x = metaopt_mex('de-x', obj.token(), island, m);
    end

    function funcData(obj, data)
      % FUNCDATA  The data buffer of an OpenCL C objective: the bytes of the numeric array data
      %   (a double under precision 'double', single(...) under 'single'; [] empties it).
      metaopt_mex('de-func-data', obj.token(), data);
    end
  end
end
