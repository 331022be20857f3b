function satisfied = metaopt_sat_evaluate(h, assignments, useCpu)
% METAOPT_SAT_EVALUATE  Satisfied clauses of each row of assignments (count x numVars, logical),
%   on the device (useCpu false, the default) or the host.
  if nargin < 3, useCpu = false; end
  satisfied = metaopt_mex('sat-evaluate', h, assignments, useCpu);
end
