function metaopt_de_init(h, objective, mutation, migration, period, opts)
% METAOPT_DE_INIT  Sets the objective and strategies of an island DE instance and makes and
%   evaluates its first populations (the thesis's init; mode 'de-init').
%   objective: a function handle or m-function name, called with the (islands * members) x dims
%   trials of one generation (row (p - 1) * members + m for island p, member m) and returning
%   their values; '@NAME' for a catalogue function on the device ('@F1', '@CEC07t'); '@FILE.cl'
%   or struct('source', code, 'name', label) for OpenCL C defining objective (its data buffer
%   set by metaopt_de_func_data). mutation: 'DE/rand/1' (default), 'DE/rand/2', 'DE/best/1',
%   'DE/best/2', 'DE/current-to-rand/1', 'DE/current-to-best/1'. migration: 'None' (default),
%   'One2One', 'One2N', 'N2One', 'N2N', 'PermuteN', 'RandTarget', every period (10) generations.
%   opts (the thesis's optionsUpdate): fields as in metaopt_de_params (F_coefs_mode,
%   F_coefs_min, F_coefs_max, CR, the four *_rng_seed, shared_random) that replace the
%   instance's current ones for this and later runs; double and cpu are fixed at creation; x0
%   (one point: the first member, as scipy's x0) and init (points, one per row: the first
%   members, island by island; clipped to the limits) start the populations from given points.
%   Constraints of an OpenCL source objective: constraints [NG NH] (its
%   void constraints(x, dims, stride, data, FP *c) writes NG inequalities g <= 0, then NH
%   equalities |h| <= eqTol), eqTol (1e-4); of an m-function objective: violation (a function
%   handle or m-function name called with the same points, returning each row's violation,
%   0 feasible, > 0 infeasible); for either, constraintHandling ('deb': Deb's feasibility
%   rules, the default; 'epsilon' or [theta tc cp]: the epsilon level of epsilon-DE); for a
%   source with the fixed DE, repair (epsilon-DE's gradient-based repair of infeasible trials:
%   a probability, 0.01 as published, or [probability rounds], 3 rounds by default). The result
%   is then the best feasible point, else the least violation (metaopt.DE's run:
%   info.violation).
  if nargin < 3, mutation = []; end
  if nargin < 4, migration = []; end
  if nargin < 5, period = []; end
  if nargin < 6
    metaopt_mex('de-init', h, objective, mutation, migration, period);
  else
    metaopt_mex('de-init', h, objective, mutation, migration, period, opts);
  end
end
