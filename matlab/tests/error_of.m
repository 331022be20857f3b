function [id, msg] = error_of(f)
  % The identifier and message of the error f() raises ('' when it raises none).
  id = '';
  msg = '';
  try
    f();
  catch err
    id = err.identifier;
    msg = err.message;
  end
end
