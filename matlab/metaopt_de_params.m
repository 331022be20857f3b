function h = metaopt_de_params(islands, members, dims, limits, bounds, opts)
% METAOPT_DE_PARAMS  An island DE instance (the thesis's DEMultiPop, 5.2.1; mode 'de-params').
%   h = metaopt_de_params(islands, members, dims, limits, bounds, opts): islands populations of
%   members members in dims dimensions; limits [a b] for every dimension or a dims x 2 matrix
%   of [a b] rows; bounds the bound correction 'sat', 'mir', 'tor', 'HVB', 'uni' or 'COTN'
%   (default), or a cell array of dims names. opts (all optional, the thesis's Table 3 names):
%   F_coefs_mode 'linspace' (F evenly from F_coefs_min to F_coefs_max over the islands),
%   'const_min' (alias 'const': F_coefs_min for all) or 'dither' (each generation, each island
%   draws its F in [F_coefs_min, F_coefs_max), as scipy's mutation=(min, max); the classic DE
%   only), F_coefs_min (0.1), F_coefs_max (1.5), integrality (one flag or one per dimension:
%   integer variables, as scipy's; their limits become the integers inside them and every point
%   made is rounded there),
%   CR_coefs_mode ('const', the thesis's only mode), CR_coef_const or CR (0.5, or one value
%   per island), selection ('ties', the default: a trial replaces its target when f(trial) <=
%   f(target); 'strict': only when f(trial) < f(target), the thesis's rule), init_rng_seed (123), mutation_rng_seed (345), crossover_rng_seed (457),
%   migration_rng_seed (581), double (default: true where the backend has fp64; or
%   precision 'single' / 'double'), fitness_precision ('single' / 'double': the type of the
%   fitness values, the thesis's FPf; default the storage precision), shared_random (false), cpu (false: the OpenCL device; true:
%   the CPU backend, which gives the same runs), algorithm ('de', the default: fixed F and CR
%   per island; or a self-adapting variant with its paper's defaults: 'jade', 'shade',
%   'lshade', 'jso'; or 'jde100': a big and a small population per island, self-adaptive F
%   and CR per member, restarts), lshade_budget (evaluations per island over which 'lshade' and 'jso'
%   shrink the population to 4 members; needed by those two), jde_small (jDE100's small
%   population, default 25; the other members are the big one), jde_eps (restart when more than
%   25 % of a population are within it of the best, default 1e-16), jde_age (the big
%   population's age limit in evaluations, default 0: none). lowerCamelCase names (fCoefsMin, cr, ...) are
%   accepted too. Compatibility wrapper: metaopt.DE is the class. The objective and the
%   strategies are given to metaopt_de_init.
  if nargin < 5 || isempty(bounds), bounds = 'COTN'; end
  if nargin < 6, opts = struct(); end
  h = metaopt_mex('de-params', islands, members, dims, limits, bounds, opts);
end
