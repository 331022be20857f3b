function metaopt_free(h)
% METAOPT_FREE  Frees an instance (QAP, general HC12, island DE or SAT); using it afterwards is
%   an error.
  metaopt_mex('free', h);
end
