function F = failing_objective(R)
% An objective that fails with its own identifier (the tests check that it reaches the caller).
  error('metaoptTest:failing', 'failing objective called with %d rows', size(R, 1));
end
