function build_matlab(libdir, interrupt)
% BUILD_MATLAB  Builds the metaopt_mex MEX function with MATLAB's mex command.
%   build_matlab() links against ../target/release/libmetaopt.so (made by
%   `cargo build --release`); build_matlab(LIBDIR) against the library in LIBDIR. The library's
%   folder is written into the MEX file's run path (Linux), so no LD_LIBRARY_PATH is needed.
%   build_matlab(LIBDIR, 'utInterrupt') also lets Ctrl-C stop a long library call (DE, HC12,
%   QAP and SAT solves) through MATLAB's undocumented libut (utIsInterruptPending); without it
%   only an m-function objective sees Ctrl-C in MATLAB (README.md, "Ctrl-C").
%   Then: addpath(<this folder>) and call metaopt_mex(...) or the metaopt_*.m wrappers.
  here = fileparts(mfilename('fullpath'));
  root = fileparts(here);
  if nargin < 1 || isempty(libdir)
    libdir = fullfile(root, 'target', 'release');
  end
  ut = {};
  if nargin >= 2 && strcmp(interrupt, 'utInterrupt')
    ut = {'-DMETAOPT_MEX_MATLAB_UT', '-lut'};
  elseif nargin >= 2
    error('metaopt:build', 'the second argument may only be ''utInterrupt''');
  end
  if ~exist(fullfile(libdir, 'libmetaopt.so'), 'file')
    error('metaopt:build', 'no libmetaopt.so in %s: run `cargo build --release` first', libdir);
  end
  % one MEX file from every source in src/ (see README.md): the gateway uses only the C MEX API
  % (mex.h) and real arrays through mxGetData; its C++ part, mex_trap.cpp, stops MATLAB's
  % exceptions (errors, Ctrl-C) in the objective callback before they reach the library
  % (-fexceptions: they pass through the C frames between them), and runs long library calls in
  % a worker thread (-pthread) while it polls for Ctrl-C
  src = fullfile(here, 'src');
  files = [dir(fullfile(src, '*.c')); dir(fullfile(src, '*.cpp'))];
  sources = sort(cellfun(@(f) fullfile(src, f), {files.name}, 'UniformOutput', false));
  mex('-R2018a', '-DMETAOPT_NO_COMPAT_NAMES', ['-I' fullfile(root, 'include')], ['-L' libdir], '-lmetaopt', ...
      'CFLAGS=$CFLAGS -std=c11 -Wall -fexceptions', 'CXXFLAGS=$CXXFLAGS -std=c++11 -Wall -pthread', ...
      ['LDFLAGS=$LDFLAGS -pthread -Wl,-rpath,' libdir], '-outdir', here, '-output', 'metaopt_mex', ...
      ut{:}, sources{:});
end
