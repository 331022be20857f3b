function d = metaopt_awvd(balls, varargin)
% METAOPT_AWVD  The additively weighted Voronoi diagram of balls: `balls` an n x 4 matrix
%   [x y z r] or the name of a PDB / mmCIF file (Voronota's atom selection and radii) or of a
%   balls file (`x y z r` lines).
%   Options (a struct or name/value pairs): cpu (false: the device in use), device (a 0-based
%   device number), double (false: a float pass with suspects re-checked in double), cell (0:
%   the library's choice, in Å), suspectBound (1e-3), hetatm, hydrogens, allModels (false),
%   timeLimit (seconds; 0: none). The diagram is whole or none: past timeLimit the call fails
%   with metaopt:timeLimit, after Ctrl-C with metaopt:interrupted.
%   d: quadruples (V x 4, 1-based balls), which (0 or 1), spheres (V x 4: x y z r), edges (V x 4,
%   1-based neighbour vertices, 0 where unbounded), contacts (C x 2, 1-based ball pairs),
%   vertices, searches, doubleRechecks, floatReplaced, restarts, elapsed, backend, text
%   (Voronota's vertices format, 0-based balls).
  d = metaopt_mex('awvd', balls, metaopt_mex('options', varargin{:}));
end
