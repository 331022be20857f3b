% EXAMPLE_HC12  General HC12 on an m-function objective and on a catalogue function, with the
%   metaopt.HC12 class (MATLAB and GNU Octave).
here = fileparts(mfilename('fullpath'));
addpath(fileparts(here));

% five parameters of 16 bits on [-5.12, 5.12]; double precision where the device has it
h = metaopt.HC12(5, 16, [-5.12 5.12]);
sphere = @(R) sum(R .^ 2, 2);  % one row per point, one value per row
[x, fval, info] = h.run(sphere, 'runs', 4, 'seed', 3);
fprintf('sphere: %.3g at %s (%d runs, %d evaluations, %s precision)\n', fval, mat2str(x, 3), ...
        info.runs, info.evaluations, info.precision);

% the catalogue's Rastrigin (F6) on the device, with a tabu list
[x6, f6, info6] = h.run('@F6', 'runs', 2, 'seed', 1, 'taboo', true, 'limitRows', 60, 'tabuIterations', 200);
fprintf('Rastrigin (F6): %.3g after %d iterations\n', f6, info6.iterations);
example_ok = fval < 1e-6 && f6 < 10;
clear h
