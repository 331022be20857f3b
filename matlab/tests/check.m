function check(cond, what)
% CHECK  One test of the Octave suites: counts a pass in the global PASSED, or a failure in
%   FAILED and prints `what` to stderr.
  global PASSED FAILED
  if cond
    PASSED = PASSED + 1;
  else
    FAILED = FAILED + 1;
    fprintf(2, 'FAILED: %s\n', what);
  end
end
