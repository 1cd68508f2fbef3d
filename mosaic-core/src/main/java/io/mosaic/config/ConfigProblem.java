package io.mosaic.config;

import java.nio.file.Path;

/**
 * One thing wrong in a configuration file, located precisely enough to fix it without reading code:
 * file, line, field, the bad value and what is allowed.
 */
public record ConfigProblem(Path file, int line, String device, String field, String message) {
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder().append(file);
    if (line > 0) {
      sb.append(':').append(line);
    }
    sb.append(": ");
    if (device != null) {
      sb.append("device '").append(device).append("' ");
    }
    if (field != null) {
      sb.append("field '").append(field).append("': ");
    }
    return sb.append(message).toString();
  }
}
