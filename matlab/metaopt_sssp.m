function [dist, pred, info] = metaopt_sssp(g, sources, varargin)
% METAOPT_SSSP  Exact shortest paths on a graph of metaopt_graph from each of `sources`
%   (1-based vertex numbers) in one call, on the device in use or the CPU backend.
%   Options (a struct or name/value pairs): method ('near-far' (default), 'frontier',
%   'bellman-ford'), delta (near-far's step; 0: the library's choice), cpu (false: Dijkstra per
%   source on the CPU), roundsPerCheck (16), maxRounds (0: the default limit), timeLimit
%   (seconds; 0: none). Distances are exact or none: past timeLimit the call fails with
%   metaopt:timeLimit, after Ctrl-C with metaopt:interrupted.
%   dist, pred: numel(sources) x n; dist Inf where unreachable, pred the 1-based predecessor on
%   a shortest path (0 for the source and unreachable vertices); info: reached and edges per
%   source (columns), rounds, elapsed, backend.
  [dist, pred, info] = metaopt_mex('sssp', g, sources, metaopt_mex('options', varargin{:}));
end
