package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.List;
import java.util.stream.Collectors;

/** A configuration file is wrong; carries every problem found in it, not just the first. */
public final class DeviceConfigException extends MosaicException {
  private final List<ConfigProblem> problems;

  public DeviceConfigException(List<ConfigProblem> problems) {
    super(
        Kind.INVALID_ARGUMENT,
        problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + " in device configuration:\n"
            + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<ConfigProblem> problems() {
    return problems;
  }
}
