classdef Graph < metaopt.Instance
% METAOPT.GRAPH  A directed graph with exact shortest paths and the ant colony; it owns its
%   gateway instance and frees it itself when it goes.
%
%   g = metaopt.Graph(A)              a square matrix (sparse: every stored entry an arc; full:
%                                     every nonzero off-diagonal entry), A(i, j) the arc i -> j
%   g = metaopt.Graph(n, s, t, w)     arcs s(k) -> t(k) (1-based) of weight w(k)
%   g = metaopt.Graph(path)           .gr, .mtx or .osm.pbf (or Graph(path, format))
%   g = metaopt.Graph('thesis', i, j, seed), metaopt.Graph('grid', width, height, ...)
%   [dist, pred, info] = g.sssp(sources, opts)   as metaopt_sssp
%   r = g.aco(source, target, opts)              as metaopt_aco
%   d = g.data()                                 n, m, weightType, arcs s, t, w

  properties (SetAccess = private)
    N = 0;
    M = 0;
  end

  methods
    function obj = Graph(a, varargin)
      obj.Token = metaopt_graph(a, varargin{:});
      s = metaopt_mex('info', obj.Token);
      obj.N = s.n;
      obj.M = s.m;
    end

    function [dist, pred, info] = sssp(obj, sources, varargin)
      % SSSP  Exact shortest paths from sources (see metaopt_sssp).
      [dist, pred, info] = metaopt_mex('sssp', obj.token(), sources, metaopt.Instance.options(varargin{:}));
    end

    function r = aco(obj, source, target, varargin)
      % ACO  The ant colony from source to target (see metaopt_aco).
      r = metaopt_mex('aco', obj.token(), source, target, metaopt.Instance.options(varargin{:}));
    end

    function d = data(obj)
      d = metaopt_mex('graph-data', obj.token());
    end
  end
end
