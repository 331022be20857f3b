function h = metaopt_sat_parse(path)
% METAOPT_SAT_PARSE  A SAT instance from a DIMACS CNF file. Free h with metaopt_free(h).
  h = metaopt_mex('sat-parse', path);
end
