% Octave tests of the 'evaluate' mode of the metaopt MEX gateway and its wrappers
% metaopt_evaluate and geatbx_cec_bundle (the thesis's geatbx_cec_bundle(X, 'CEC05t')): the CEC
% 2019 transformed functions equal 1 at their shift, known minima, the device against the CPU,
% row order, single X, and errors naming the argument. Run by `make test-octave` after
% test_metaopt.m (which builds the MEX file); ends with "N passed, M failed", exit status 1 on a
% failure.
1;

addpath(fileparts(mfilename('fullpath')));

global PASSED FAILED
PASSED = 0;
FAILED = 0;
t0 = tic;
here = fileparts(mfilename('fullpath'));
root = fileparts(fileparts(here));
addpath(fileparts(here));  % the MEX function and the wrappers
data_root = getenv('METAOPT_DATA_DIR');
if isempty(data_root)
  data_root = fullfile(root, 'data');
end

% --- CEC04t..CEC10t are 1 at their shift o (the 100-Digit Challenge), D = 2 and 10 ---
for k = 4:10
  fid = fopen(fullfile(data_root, 'cec2019', sprintf('shift_data_%d.txt', k)));
  o = fscanf(fid, '%f')';
  fclose(fid);
  name = sprintf('CEC%02dt', k);
  for D = [2 10]
    X = [o(1:D); o(1:D) + 0.5];
    yc = metaopt_evaluate(name, X, 'cpu', true);
    yd = metaopt_evaluate(name, X);
    check(isequal(size(yc), [2 1]) && isequal(size(yd), [2 1]), sprintf('%s D=%d: one value per row', name, D));
    check(abs(yc(1) - 1) < 1e-11 && abs(yd(1) - 1) < 1e-11, sprintf('%s D=%d is 1 at o (%.17g, %.17g)', name, D, yc(1), yd(1)));
    check(yc(2) > 1 && abs(yd(2) - yc(2)) <= 1e-12 * yc(2), sprintf('%s D=%d: device equals the CPU off o', name, D));
    check(abs(geatbx_cec_bundle(o(1:D), name) - 1) < 1e-11, sprintf('geatbx_cec_bundle(o, ''%s'') D=%d', name, D));
  end
end

% --- known minima of the plain functions ---
minima = {'F1', zeros(1, 10), 0; 'F5', ones(1, 10), 0; 'F7', repmat(420.9687462275036, 1, 10), -4189.828872724338; ...
          'F11', [2.7934022086450367 1.5972325013283601], -4.155809291847785; 'CEC09', -ones(1, 10), 0; ...
          'CEC10', zeros(1, 10), 0};
for i = 1:rows(minima)
  [name, x, v] = minima{i, :};
  check(abs(metaopt_evaluate(name, x, 'cpu', true) - v) < 1e-9 && abs(metaopt_evaluate(name, x) - v) < 1e-9, ...
        sprintf('%s at its minimum', name));
end

% --- rows in order, any real class, case-insensitive names ---
check(isequal(metaopt_evaluate('f1', [1 2 3; 0 0 0; -1 0 1], 'cpu', true), [14; 0; 2]), 'F1 of three rows');
check(isequal(metaopt_evaluate('F1', int32([1 2 3; 0 0 0])), [14; 0]), 'F1 of an int32 matrix');

% --- the device against the CPU on random points; single X gives single ---
rand('seed', 24);
names = {'F3', 'F8', 'CEC06', 'CEC05t', 'CEC07t', 'CEC09t'};
dims = [7 10 5 10 2 10];
for i = 1:numel(names)
  X = rand(300, dims(i)) * 200 - 100;
  yc = metaopt_evaluate(names{i}, X, 'cpu', true);
  yd = geatbx_cec_bundle(X, names{i});
  check(max(abs(yd - yc) ./ max(1, abs(yc))) <= 1e-12, sprintf('%s: device double equals the CPU', names{i}));
  ys = geatbx_cec_bundle(single(X), names{i});
  check(isa(ys, 'single') && max(abs(double(ys) - yc) ./ max(1, abs(yc))) <= 1e-3, sprintf('%s: single X evaluates in single', names{i}));
end
CEC05t = @(X) geatbx_cec_bundle(X, 'CEC05t');
check(isequal(size(CEC05t(rand(1000, 10))), [1000 1]), 'the thesis''s anonymous function of geatbx_cec_bundle');

% --- errors name their argument ---
[id, msg] = error_of(@() metaopt_evaluate('F99', zeros(2, 3)));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, '`function`')), ['unknown name: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('CEC05t', zeros(2, 3), 'cpu', true));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, '`dims`')), ['CEC05t in D = 3: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', [0 0 0; 0 NaN 0]));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'X(2,2)')), ['NaN: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', [0 Inf]));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'X(1,2)')), ['Inf: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', zeros(0, 3)));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'X must')), ['no rows: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', {1, 2}));
check(strcmp(id, 'metaopt:badArgument') || strcmp(id, 'metaopt:badType'), ['a cell X: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', [1 2], 'cpu', true, 'precision', 'single'));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, '`precision`')), ['single on the CPU: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', [1 2], 'precision', 'half'));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'precision')), ['precision half: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate('F1', [1 2], 'gpu', true));
check(strcmp(id, 'metaopt:badOption'), ['unknown option: ' id ' ' msg]);
[id, msg] = error_of(@() metaopt_evaluate(5, [1 2]));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'name')), ['a numeric name: ' id ' ' msg]);

fprintf('octave evaluate tests: %.1f s\n', toc(t0));
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
