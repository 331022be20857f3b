function F = slow_objective(R)
% The sphere, slowly (0.05 s a call); says "objective running" on its first call. The objective
% that tests/test_interrupt.sh interrupts with Ctrl-C (SIGINT).
  persistent announced
  if isempty(announced)
    announced = true;
    printf('objective running\n');
    fflush(stdout);
  end
  pause(0.05);
  F = sum(R .^ 2, 2);
end
