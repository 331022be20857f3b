function F = sphere_objective(R)
% The sphere function over the rows of R (an m-function objective given by name in the tests).
  F = sum(R .^ 2, 2);
end
