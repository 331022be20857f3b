function s = options(varargin)
% METAOPT.OPTIONS  Options as a struct under their lowerCamelCase names: metaopt.options(s) or
%   metaopt.options('name', value, ...). The thesis's and snake_case names are aliases
%   (time_limit -> timeLimit, F_coefs_min -> fCoefsMin, init_rng_seed -> initRngSeed,
%   CR -> cr, generations -> maxGenerations); the gateway holds the one alias table
%   (matlab/src/mex_args.c). Two names of one option are metaopt:badOption.
  s = metaopt.Instance.options(varargin{:});
end
