% The adaptive DE variants through the MEX front end (opts.algorithm, docs/specs/DE.md
% "Adaptive DE"): each solves the sphere, the device and the CPU backend give the same run,
% a bad name is an error naming opts.algorithm. Run from matlab/ after build_octave().
1;
addpath(fileparts(mfilename('fullpath')));
addpath(fileparts(fileparts(mfilename('fullpath'))));
global PASSED FAILED
PASSED = 0;
FAILED = 0;
names = {'jade', 'shade', 'lshade', 'jso'};
for i = 1:numel(names)
  runs = {};
  for cpu = [false true]
    h = metaopt_de_params(1, 20, 5, [-5.12 5.12], 'HVB', struct('algorithm', names{i}, ...
        'lshade_budget', 20 * 300, 'precision', 'double', 'cpu', cpu));
    metaopt_de_init(h, '@F1', 'DE/rand/1');
    [v, ~, info] = metaopt_de_run(h, struct('generations', 300, 'target', 1e-10));
    check(v <= 1e-10, sprintf('%s (cpu %d) solves the sphere: %g', names{i}, cpu, v));
    runs{end + 1} = [info.generations info.evaluations];
    metaopt_free(h);
  end
  check(isequal(runs{1}, runs{2}), sprintf('%s: the device equals the CPU backend', names{i}));
end
[~, msg] = error_of(@() metaopt_de_params(1, 20, 5, [-1 1], 'HVB', struct('algorithm', 'jde')));
check(~isempty(strfind(msg, 'opts.algorithm')), ['a bad algorithm names opts.algorithm: ' msg]);
[~, msg] = error_of(@() metaopt_de_params(1, 20, 5, [-1 1], 'HVB', struct('algorithm', 'jso', 'cpu', true)));
check(~isempty(strfind(msg, 'lshade_budget')), ['jso without a budget names lshade_budget: ' msg]);
% jDE100: opts.algorithm 'jde100' with jde_small, the device equals the CPU backend
runs = {};
for cpu = [false true]
  h = metaopt_de_params(1, 40, 5, [-5.12 5.12], 'HVB', struct('algorithm', 'jde100', 'jde_small', 8, ...
      'precision', 'double', 'cpu', cpu));
  metaopt_de_init(h, '@F6', 'DE/rand/1');
  [v, ~, info] = metaopt_de_run(h, struct('generations', 2000, 'target', 1e-10));
  check(v <= 1e-10, sprintf('jde100 (cpu %d) solves Rastrigin: %g', cpu, v));
  runs{end + 1} = [info.generations info.evaluations];
  metaopt_free(h);
end
check(isequal(runs{1}, runs{2}), 'jde100: the device equals the CPU backend');
[~, msg] = error_of(@() metaopt_de_params(1, 10, 5, [-1 1], 'HVB', struct('algorithm', 'jde100', 'jdeSmall', 3, 'cpu', true)));
check(~isempty(strfind(msg, 'jde_small')), ['a small population of 3 names jde_small: ' msg]);
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
