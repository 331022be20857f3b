function F = reentrant_objective(R)
% The sphere, which first makes the metaopt_mex calls of REENTRANT_CALLS (a global cell array of
% argument lists, emptied here) or evaluates it when it is a string ('clear metaopt_mex'): the
% tests check that the instance whose call runs is busy to them, and that other instances are not.
  global REENTRANT_CALLS
  calls = REENTRANT_CALLS;
  REENTRANT_CALLS = {};
  if ischar(calls)
    eval(calls);
  else
    for k = 1:numel(calls)
      metaopt_mex(calls{k}{:});
    end
  end
  F = sum(R .^ 2, 2);
end
