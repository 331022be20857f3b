function e = metaopt_knapsack_evaluate(h, bits)
% METAOPT_KNAPSACK_EVALUATE  Profit, weight and feasibility of an item set (n logical or 0/1).
  e = metaopt_mex('knapsack-evaluate', h, bits);
end
