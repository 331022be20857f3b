% Octave tests of the `awvd` mode of the metaopt MEX gateway and metaopt_awvd: the diagram of 1UBQ
% (data/pdb) from the PDB file and from a matrix has Voronota's 3,793 vertices
% (data/pdb/1ubq.vertices.txt, the same quadruples), its spheres touch their four balls, its
% edges link back, the device equals the CPU, and bad input raises errors naming the argument.
% Run by `make test-octave`; ends with "N passed, M failed", exit status 1 on a failure.
1;

% check(cond, what) and error_of(f): tests/check.m and tests/error_of.m, on the path whatever the
% current folder
addpath(fileparts(mfilename('fullpath')));

global PASSED FAILED
PASSED = 0;
FAILED = 0;
t0 = tic;
here = fileparts(mfilename('fullpath'));
addpath(fullfile(here, '..'));
pdbdir = fullfile(here, '..', '..', 'data', 'pdb');
pdb = fullfile(pdbdir, '1ubq.pdb');

% Voronota's vertices of 1UBQ: q1 q2 q3 q4 (0-based) x y z r
want = dlmread(fullfile(pdbdir, '1ubq.vertices.txt'), ' ');
want = want(:, 1:8);
check(rows(want) == 3793, 'the Voronota file holds 3,793 vertices');

d = metaopt_awvd(pdb, 'cpu', true);
check(d.vertices == 3793 && rows(d.quadruples) == 3793, 'awvd 1UBQ (CPU): 3,793 vertices');
check(isequal(sortrows(d.quadruples - 1), sortrows(want(:, 1:4))), 'awvd 1UBQ: Voronota''s quadruples');
[~, ig] = sortrows(d.quadruples);
[~, iw] = sortrows(want(:, 1:4));
check(max(max(abs(d.spheres(ig, :) - want(iw, 5:8)))) < 1e-6, 'awvd 1UBQ: Voronota''s spheres');
balls = dlmread(fullfile(pdbdir, '1ubq.balls.txt'), ' ');
balls = balls(:, 1:4);
err = 0;
for k = 1:4
  b = balls(d.quadruples(:, k), :);
  dist = sqrt(sum((b(:, 1:3) - d.spheres(:, 1:3)) .^ 2, 2));
  err = max(err, max(abs(dist - d.spheres(:, 4) - b(:, 4))));
end
check(err < 1e-7, sprintf('awvd 1UBQ: every sphere touches its four balls (%.2g)', err));
ok = true;
for v = 1:97:rows(d.edges)
  for m = d.edges(v, :)
    if m > 0
      ok = ok && any(d.edges(m, :) == v);
    end
  end
end
check(ok && min(d.edges(:)) >= 0 && max(d.edges(:)) <= 3793, 'awvd 1UBQ: edges link back');
check(all(d.contacts(:, 1) < d.contacts(:, 2)) && max(d.contacts(:)) <= 602, 'awvd 1UBQ: contacts are pairs i < j');
check(numel(strsplit(strtrim(d.text), "\n")) == 3793, 'awvd 1UBQ: Voronota text of 3,793 lines');
check(~isempty(strfind(d.backend, 'CPU')) && d.searches > 0, 'awvd 1UBQ: backend and counters');

m = metaopt_mex('awvd', balls, struct('cpu', true));
check(isequal(m.quadruples, d.quadruples) && isequal(m.spheres, d.spheres), 'awvd from an n x 4 matrix equals the file');
[id, msg] = error_of(@() metaopt_awvd(pdb));
if strcmp(id, 'metaopt:noDevice')
  printf('no OpenCL device: %s\n', msg);
else
  g = metaopt_awvd(pdb);
  check(isequal(g.quadruples, d.quadruples) && max(abs(g.spheres(:) - d.spheres(:))) < 1e-9, 'awvd 1UBQ on the device equals the CPU');
end

% --- errors ---
bad = balls(1:5, :);
bad(3, 4) = -0.5;
[id, msg] = error_of(@() metaopt_awvd(bad, 'cpu', true));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, '`r`')) && ~isempty(strfind(msg, 'ball 2')), 'awvd: a negative radius names r');
bad = balls(1:5, :);
bad(2, 1) = NaN;
[id, msg] = error_of(@() metaopt_awvd(bad, 'cpu', true));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, '`x`')), 'awvd: a NaN centre names x');
[id, msg] = error_of(@() metaopt_awvd(balls(:, 1:3), 'cpu', true));
check(strcmp(id, 'metaopt:badArgument') && ~isempty(strfind(msg, 'n x 4')), 'awvd: three columns');
[id, msg] = error_of(@() metaopt_awvd(zeros(0, 4), 'cpu', true));
check(strcmp(id, 'metaopt:badArgument'), 'awvd: no balls');
[id, msg] = error_of(@() metaopt_awvd('/nonexistent/x.pdb', 'cpu', true));
check(any(strcmp(id, {'metaopt:io', 'metaopt:parse'})) && ~isempty(strfind(msg, 'x.pdb')), 'awvd: a missing PDB file (pdbtbx reports it as a parse error)');
[id, msg] = error_of(@() metaopt_awvd('/nonexistent/x.balls', 'cpu', true));
check(strcmp(id, 'metaopt:io') && ~isempty(strfind(msg, 'x.balls')), 'awvd: a missing balls file');
check(strcmp(error_of(@() metaopt_awvd(pdb, 'colour', 1)), 'metaopt:badOption'), 'awvd: an unknown option');
[id, msg] = error_of(@() metaopt_awvd(pdb, 'cpu', true, 'cell', -1));
check(strcmp(id, 'metaopt:invalidArgument') && ~isempty(strfind(msg, 'cell')), 'awvd: a negative cell');

% a time limit: no diagram past it, the error metaopt:timeLimit
rand('seed', 1);
many = [rand(100000, 3) * 140, 1 + rand(100000, 1)];
tic;
[id, msg] = error_of(@() metaopt_awvd(many, 'cpu', true, 'timeLimit', 0.3));
took = toc;
check(strcmp(id, 'metaopt:timeLimit') && ~isempty(strfind(msg, 'no result')) && took < 1.3, ...
      sprintf('awvd: 100,000 balls past a 0.3 s limit: metaopt:timeLimit (%.2f s)', took));

fprintf('octave awvd tests: %.1f s\n', toc(t0));
printf('%d passed, %d failed\n', PASSED, FAILED);
exit(FAILED > 0);
