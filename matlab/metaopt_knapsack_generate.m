function h = metaopt_knapsack_generate(kind, items, range, seed)
% METAOPT_KNAPSACK_GENERATE  A seeded random knapsack instance: kind 'hankim', 'uncorrelated',
%   'weak', 'strong' or 'subset-sum'; range R (default 1000, ignored by 'hankim'), seed (1).
%   The capacity is half the total weight. Free h with metaopt_free(h).
  if nargin < 3, range = 1000; end
  if nargin < 4, seed = 1; end
  h = metaopt_mex('knapsack-generate', kind, items, range, seed);
end
