package io.mosaic;

import java.util.Objects;

/**
 * Every failure Mosaic reports on purpose, with a {@link Kind} that front ends map once: Trino to a
 * {@code MosaicErrorCode} and its error type, Spark to an error class, the CLI to an exit code (see
 * docs/architecture.md, "Errors"). The message says what is wrong and what would fix it in words
 * that fit every front end; a front end may add how (a command, a {@code CALL}).
 */
public class MosaicException extends RuntimeException {
  /** What went wrong, as far as the caller can act on it. */
  public enum Kind {
    /** A request, option or configuration value is wrong; the caller can fix it. */
    INVALID_ARGUMENT,
    /** A table, column, device, version or file named by the caller does not exist. */
    NOT_FOUND,
    /** Committed metadata or data failed a check; nothing was modified. */
    CORRUPT,
    /** Another writer or maintenance operation got there first; retrying may succeed. */
    CONFLICT,
    /** A device has no room for a write, by its configured capacity or its file system. */
    DEVICE_FULL,
    /** No placement satisfies the constraints asked for. */
    INFEASIBLE,
    /** The request is understood but Mosaic does not do it (a type, an operation). */
    UNSUPPORTED,
    /** The file system failed below Mosaic. */
    IO
  }

  private final Kind kind;

  public MosaicException(Kind kind, String message) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public MosaicException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public Kind kind() {
    return kind;
  }

  public static MosaicException invalid(String message) {
    return new MosaicException(Kind.INVALID_ARGUMENT, message);
  }

  public static MosaicException notFound(String message) {
    return new MosaicException(Kind.NOT_FOUND, message);
  }

  public static MosaicException unsupported(String message) {
    return new MosaicException(Kind.UNSUPPORTED, message);
  }

  public static MosaicException io(String message, Throwable cause) {
    return new MosaicException(Kind.IO, message, cause);
  }
}
