function r = metaopt_aco(g, source, target, varargin)
% METAOPT_ACO  The ant colony for the shortest path from `source` to `target` (1-based) on a
%   graph of metaopt_graph (docs/specs/ACO.md), on the device in use or the CPU backend (the
%   same result for the same seed). Options (a struct or name/value pairs; the library's
%   defaults): ants (64), alpha (1), beta (2), damping (0), evaporation (0.1), depositExponent
%   (1), initialPheromone (0: MAX-MIN reset), iterations (100; 0: the thesis's rule), noImprove
%   (0: never), maxMin (0.01; 0: no bounds), deposit ('all', 'iteration-best'), selection
%   ('roulette', 'gumbel'), maxSteps (0: no limit), seed (0), groupSize (0: tuning), localSearch
%   (true: shortcuts and one- to three-vertex detours of the ants' paths; false: the thesis's method),
%   restart (0: never), cpu (false), timeLimit (seconds, checked between iterations; 0: none),
%   checkpoint (a file the run writes its whole state to when it ends, Ctrl-C included, and every
%   checkpointEvery seconds), resume (such a file: the run continues the saved one as if it had
%   never stopped; the graph, source, target and options must be the saved run's, iterations,
%   noImprove and timeLimit may differ).
%   r: path (1-based row; [] when no ant reached the target), length, gap, exactLength (Inf when
%   unreachable), pheromonePath, pheromoneLength, iterations, foundAtIteration (0: none),
%   successfulAnts, elapsed, backend, stopReason ('budget': its iterations, 'stagnation',
%   'time_limit', 'interrupted', 'done': no iteration needed). Ctrl-C stops the run with the error
%   metaopt:interrupted, whose message gives the best length so far.
  r = metaopt_mex('aco', g, source, target, metaopt_mex('options', varargin{:}));
end
