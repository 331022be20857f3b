classdef Instance < handle
% METAOPT.INSTANCE  The base of metaopt's classes (metaopt.QAP, metaopt.HC12, metaopt.DE,
%   metaopt.SAT): a handle object holding one instance of the metaopt_mex gateway, which it
%   frees itself when its last reference goes (its delete method; MATLAB and GNU Octave call it
%   on clear, on leaving a function, on reassignment). delete(obj) frees it at once; the object
%   is unusable afterwards (metaopt:freedHandle).
%
%   metaopt.liveInstances() counts the gateway's live instances.

  properties (SetAccess = protected, Hidden)
    % the gateway's uint8 instance array ([] once freed)
    Token = [];
  end

  methods
    function delete(obj)
      % DELETE  Frees the gateway instance (called by MATLAB and Octave when the last reference
      %   goes, or explicitly). Freeing twice does nothing.
      if isempty(obj.Token)
        return;
      end
      t = obj.Token;
      obj.Token = [];
      try
        metaopt_mex('free', t);
      catch
        % freed already: `clear metaopt_mex` (or leaving MATLAB) frees every instance; a
        % destructor must not raise
      end
    end

    function s = info(obj)
      % INFO  What the instance is: a struct (QAP, SAT) or text (HC12, DE), as metaopt_mex('info').
      s = metaopt_mex('info', obj.token());
    end

    function tf = isLive(obj)
      % ISLIVE  Whether the object still holds its gateway instance (false after delete or after
      %   `clear metaopt_mex`, which frees every instance).
      tf = false;
      if ~isempty(obj.Token)
        try
          metaopt_mex('info', obj.Token);
          tf = true;
        catch
        end
      end
    end
  end

  methods (Hidden)
    function t = token(obj)
      % the instance array, or metaopt:freedHandle after delete
      if isempty(obj.Token)
        error('metaopt:freedHandle', 'this %s object was deleted', class(obj));
      end
      t = obj.Token;
    end
  end

  methods (Static, Hidden)
    function s = options(varargin)
      % The options given as one struct or as name/value pairs, under their lowerCamelCase
      % names (the gateway's one alias table: time_limit, F_coefs_min, CR, ... are accepted).
      if isempty(varargin)
        s = struct();
      elseif numel(varargin) == 1 && (isstruct(varargin{1}) || isempty(varargin{1}))
        s = metaopt_mex('options', varargin{1});
      else
        s = metaopt_mex('options', varargin{:});
      end
    end

    function [values, rest] = take(s, names, defaults)
      % Removes the fields `names` from the options struct s: their values (defaults{k} where
      % absent or []) in a cell array, and the struct of the others.
      values = defaults;
      rest = s;
      for k = 1:numel(names)
        if isfield(s, names{k})
          if ~isempty(s.(names{k}))
            values{k} = s.(names{k});
          end
          rest = rmfield(rest, names{k});
        end
      end
    end

    function check_known(s, known, what)
      % metaopt:badOption for a field of s not in known
      f = fieldnames(s);
      for k = 1:numel(f)
        if ~any(strcmp(f{k}, known))
          error('metaopt:badOption', '%s: unknown option %s (known: %s)', what, f{k}, strjoin(known, ', '));
        end
      end
    end
  end
end
