function n = liveInstances()
% METAOPT.LIVEINSTANCES  The gateway's live instances: a struct with the total and the count of
%   each kind (qap, hc12, sat, de, knapsack, bde, graph). The classes of this package free theirs when their objects
%   go, so this falls back when the last reference to one goes.
  n = metaopt_mex('live');
end
