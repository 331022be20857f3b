function build_octave(libdir)
% BUILD_OCTAVE  Builds metaopt_mex.mex with GNU Octave (mkoctfile --mex).
%   build_octave() links against ../target/release/libmetaopt.so (made by
%   `cargo build --release`); build_octave(LIBDIR) against the library in LIBDIR. The library's
%   folder is written into the MEX file's run path, so no LD_LIBRARY_PATH is needed.
%   Then: addpath(<this folder>) and call metaopt_mex(...) or the metaopt_*.m wrappers.
  here = fileparts(mfilename('fullpath'));
  root = fileparts(here);
  if nargin < 1 || isempty(libdir)
    libdir = fullfile(root, 'target', 'release');
  end
  if ~exist(fullfile(libdir, 'libmetaopt.so'), 'file')
    error('metaopt:build', 'no libmetaopt.so in %s: run `cargo build --release` first', libdir);
  end
  % one MEX file from every source in src/ (see README.md): the gateway is C; mex_trap.cpp,
  % which stops Octave's exceptions (errors, Ctrl-C) before they reach the library, is C++ and
  % knows Octave's interrupt (METAOPT_MEX_OCTAVE) and runs long library calls in a worker thread
  % while it polls for Ctrl-C (-pthread); -fexceptions: those exceptions pass through the C
  % frames between them
  src = fullfile(here, 'src');
  files = [dir(fullfile(src, '*.c')); dir(fullfile(src, '*.cpp'))];
  sources = sort(cellfun(@(f) fullfile(src, f), {files.name}, 'UniformOutput', false));
  old_c = getenv('CFLAGS');
  old_cxx = getenv('CXXFLAGS');
  old_ld = getenv('LDFLAGS');
  setenv('CFLAGS', [old_c ' -std=c11 -O2 -Wall -Wextra -fexceptions']);
  setenv('CXXFLAGS', [old_cxx ' -std=c++11 -O2 -Wall -Wextra -pthread']);
  setenv('LDFLAGS', [old_ld ' -pthread']);
  unwind_protect
    [out, status] = mkoctfile('--mex', '-DMETAOPT_MEX_OCTAVE', '-DMETAOPT_NO_COMPAT_NAMES', ['-I' fullfile(root, 'include')], ...
                              ['-L' libdir], ['-Wl,-rpath,' libdir], '-lmetaopt', ...
                              '-o', fullfile(here, 'metaopt_mex.mex'), sources{:});
  unwind_protect_cleanup
    setenv('CFLAGS', old_c);
    setenv('CXXFLAGS', old_cxx);
    setenv('LDFLAGS', old_ld);
  end_unwind_protect
  if status ~= 0
    error('metaopt:build', 'mkoctfile failed:\n%s', out);
  end
  printf('built %s\n', fullfile(here, 'metaopt_mex.mex'));
end

