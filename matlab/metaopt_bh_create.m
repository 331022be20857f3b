function h = metaopt_bh_create(objective, bounds, opts)
% METAOPT_BH_CREATE  Chains of monotonic basin hopping over the box bounds (a dims x 2 matrix
%   of [lower upper] rows) of objective: '@NAME' (a catalogue function), '@FILE.cl' or a struct
%   with field source (OpenCL C, on a device; opts.data its data buffer), or a function handle
%   or m-function name (on the CPU backend, opts.cpu = true: called with the chains x dims trial
%   points of a step, returning their values). opts: chains (default 4096), hopMin and hopMax
%   (hop sizes, fractions of each dimension's width; defaults 1e-6 and 0.015), hopScales (16),
%   step0 and stepStop (the local search's first and last step; 0.0015 and 5e-17), maxSearch
%   (20000), seed (1), launchSteps (steps between two shares of the lowest anchor; 250), share
%   (false: independent chains), precision ('single' or 'double'), cpu, device, data (an
%   OpenCL source's data buffer); constraints, compared by Deb's feasibility rules:
%   constraints [NG NH] (an OpenCL source's constraints function writes NG inequalities
%   g <= 0, then NH equalities |h| <= eqTol) or violation (for an m-function objective: a
%   function handle or m-function name returning each row's violation, 0 feasible), eqTol
%   (1e-4). Solve with metaopt_bh_solve; free with metaopt_free.
  if nargin < 3, opts = struct(); end
  h = metaopt_mex('bh-create', objective, bounds, opts);
end
