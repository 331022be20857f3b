function F = flaky_objective(R)
% The sphere, until call number FLAKY_FAIL_AT (a global), which fails with its own identifier
% (the tests check that an error in the middle of a DE run reaches the caller).
  global FLAKY_CALLS FLAKY_FAIL_AT
  FLAKY_CALLS = FLAKY_CALLS + 1;
  if FLAKY_CALLS >= FLAKY_FAIL_AT
    error('metaoptTest:flaky', 'flaky objective: call %d', FLAKY_CALLS);
  end
  F = sum(R .^ 2, 2);
end
