function [F, err] = metaopt_call_objective(fun, X)
% METAOPT_CALL_OBJECTIVE  Used by metaopt_mex to call an m-function objective.
%   [F, err] = metaopt_call_objective(fun, X) evaluates F = fun(X) and returns an error as err
%   instead of raising it, so that it never unwinds through libmetaopt; metaopt_mex raises it
%   (rethrow) once the library has returned. Keep this file beside metaopt_mex.
  F = [];
  err = [];
  try
    F = feval(fun, X);
  catch e
    err = e;
  end
end
