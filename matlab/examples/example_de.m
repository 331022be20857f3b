% EXAMPLE_DE  Island differential evolution with the metaopt.DE class (MATLAB and GNU Octave):
%   a catalogue function on the device, then an m-function objective.
here = fileparts(mfilename('fullpath'));
addpath(fileparts(here));

% 8 islands of 40 members in 10 dimensions; the thesis's option names are aliases
d = metaopt.DE(8, 40, 10, [-5.12 5.12], 'fCoefsMin', 0.5, 'fCoefsMax', 0.9, 'cr', 0.9);
d.init('@F1', 'mutation', 'DE/rand/1', 'migration', 'PermuteN', 'period', 10);
[x, fval, info] = d.run('maxGenerations', 600, 'target', 1e-6);
fprintf('F1 in 10-D: %.3g on island %d after %d generations (stopped by %s, %s precision)\n', ...
        fval, info.island, info.generations, info.stopReason, info.precision);

% an m-function: the rows are all trials of one generation
rosen = @(X) sum(100 * (X(:, 2:end) - X(:, 1:end-1) .^ 2) .^ 2 + (1 - X(:, 1:end-1)) .^ 2, 2);
d2 = metaopt.DE(4, 30, 4, [-2 2], 'F_coefs_min', 0.5, 'CR', 0.9);
d2.init(rosen, 'mutation', 'DE/best/1');
[x2, f2, info2] = d2.run('maxGenerations', 300);
fprintf('Rosenbrock in 4-D: %.3g at %s (%d evaluations)\n', f2, mat2str(x2, 3), info2.evaluations);
example_ok = fval < 1e-6 && f2 < 1;
clear d d2
