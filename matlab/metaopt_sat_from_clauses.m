function h = metaopt_sat_from_clauses(numVars, clauses)
% METAOPT_SAT_FROM_CLAUSES  A SAT instance from clauses: a cell array of literal vectors
%   ({[1 -2], [2 3]}) or one vector of DIMACS literals, each clause ended by 0.
  h = metaopt_mex('sat-clauses', numVars, clauses);
end
