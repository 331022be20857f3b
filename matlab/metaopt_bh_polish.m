function result = metaopt_bh_polish(objective, bounds, x, opts)
% METAOPT_BH_POLISH  The library's polish: basin hopping's (1+1)-ES searching from the point x
%   within the box bounds (a dims x 2 matrix of [lower upper] rows), keeping x unless it finds a
%   better point (by Deb's feasibility rules under constraints). objective as in
%   metaopt_bh_create ('@NAME', '@FILE.cl', a struct with field source, or a function handle or
%   m-function name with opts.cpu = true). opts: chains (8), steps (1000 + 200 dims), seed (1),
%   precision, cpu, device, data (an OpenCL source's data buffer), timeLimit (seconds),
%   constraints [NG NH] (an OpenCL source's constraints function) or violation (a function
%   handle or m-function name returning each row's violation, 0 feasible, for an m-function
%   objective), eqTol. result: value, x, violation, startValue, startViolation, improved,
%   evaluations, seconds, stopReason, precision. Ctrl-C stops it (metaopt:interrupted).
  if nargin < 4, opts = struct(); end
  result = metaopt_mex('bh-polish', objective, bounds, x, opts);
end
