function g = metaopt_graph(a, varargin)
% METAOPT_GRAPH  A directed graph for metaopt_sssp and metaopt_aco (docs/specs/SP.md). Free g
%   with metaopt_free(g).
%   g = metaopt_graph(A)              a square matrix, A(i, j) the arc i -> j: sparse, every
%                                     stored entry an arc (double weights); full, every nonzero
%                                     off-diagonal entry (uint32, uint64, single or double
%                                     weights by its class)
%   g = metaopt_graph(n, s, t, w)     n vertices, the arcs s(k) -> t(k) (1-based) of weight w(k)
%   g = metaopt_graph(path)           a file: .gr (DIMACS), .mtx (MatrixMarket), .osm.pbf
%   g = metaopt_graph(path, format)   format 'dimacs', 'mtx', 'osm', 'osm-roads-rounded'
%   g = metaopt_graph('thesis', i, j, seed)   the thesis's random graph of 2^i vertices
%   g = metaopt_graph('grid', width, height, maxWeight, obstacles, seed)
%   Self-loops are dropped and duplicate arcs keep the smallest weight; weights must be
%   non-negative and finite. metaopt_info(g) gives n, m and weightType; metaopt_mex('graph-data',
%   g) the arcs (s, t, w).
  if ischar(a) && strcmp(a, 'thesis')
    g = metaopt_mex('graph-thesis', varargin{:});
  elseif ischar(a) && strcmp(a, 'grid')
    g = metaopt_mex('graph-grid', varargin{:});
  elseif ischar(a)
    g = metaopt_mex('graph-file', a, varargin{:});
  elseif isempty(varargin)
    g = metaopt_mex('graph-create', a);
  else
    g = metaopt_mex('graph-edges', a, varargin{:});
  end
end
