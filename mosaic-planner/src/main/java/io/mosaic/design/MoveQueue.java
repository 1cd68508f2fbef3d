package io.mosaic.design;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A table's transformation in progress (docs/physical-design.md): the steps a {@link
 * DesignProposal} identified, how far each got, the schedule, and whether a person paused or
 * cancelled it. Kept in the table's root ({@value #FILE}), written atomically after every change,
 * so a service that stops (or is killed) resumes where it was, and a person in another process can
 * pause, resume or cancel it.
 *
 * @param table the table's name
 * @param state what the service should do next
 * @param shape the schedule's shape
 * @param rate the configured rate in bytes per second
 * @param fullRate the rate when nothing holds the moves back
 * @param workingSetBytes the bytes {@code fast-start} writes at full rate
 * @param deviceRates the gentle rate of each device whose rate differs from {@code rate}
 * @param steps in the order they run
 * @param reason the identification's reason, in numbers
 * @param error the failure that stopped it, if any
 * @param secondsNow the predicted time of one workload run before any step (NaN in a queue written
 *     before progress was kept)
 * @param progress how far the step in flight got and how fast, or null before any copy
 */
public record MoveQueue(
    String table,
    State state,
    ScheduleShape shape,
    double rate,
    double fullRate,
    long workingSetBytes,
    Map<String, Double> deviceRates,
    List<Step> steps,
    String reason,
    String error,
    double secondsNow,
    Progress progress) {

  /** The file in the table's root. */
  public static final String FILE = "_design-moves.json";

  /** What the service does with the queue. */
  public enum State {
    /** Steps are (or should be) running. */
    RUNNING,
    /** A person paused it: the step in flight stops (its column stays where it was). */
    PAUSED,
    /** A person cancelled it: steps done stay done, the rest are dropped. */
    CANCELLED,
    /** Every step committed. */
    DONE,
    /** A step failed; {@code error} says why. Resuming retries it. */
    FAILED;

    public String spelling() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where one step is. */
  public enum StepState {
    PENDING,
    DONE;

    public String spelling() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How far the runner got, written with the queue at most every {@link #PROGRESS_MILLIS} ms while
   * a step copies, so another process can show it.
   *
   * @param step the index of the step in flight
   * @param stepBytesDone the bytes that step copied so far
   * @param startedMillis when the transformation started or was last resumed (epoch ms)
   * @param rate the bytes per second copied since {@code startedMillis} (0 until measured)
   */
  public record Progress(int step, long stepBytesDone, long startedMillis, double rate) {}

  /** The least time between two writes of {@link Progress}: the queue is rewritten whole. */
  public static final long PROGRESS_MILLIS = 1000;

  /**
   * One step of the queue: a column to move (or re-encode with {@code codec}, or sort the table
   * by), its planned bytes, and the version its commit made. A queue written before step kinds has
   * only moves.
   *
   * @param secondsAfter the predicted time of one workload run once this step and those before it
   *     are done (NaN in a queue written before progress was kept)
   */
  public record Step(
      String column,
      String from,
      String to,
      long writeBytes,
      double gainSeconds,
      StepState state,
      long committedVersion,
      StepKind kind,
      Codec codec,
      double secondsAfter) {
    public Step {
      Objects.requireNonNull(kind, "kind");
    }

    /** A step without its predicted workload time. */
    public Step(
        String column,
        String from,
        String to,
        long writeBytes,
        double gainSeconds,
        StepState state,
        long committedVersion,
        StepKind kind,
        Codec codec) {
      this(
          column,
          from,
          to,
          writeBytes,
          gainSeconds,
          state,
          committedVersion,
          kind,
          codec,
          Double.NaN);
    }

    /** A move. */
    public Step(
        String column,
        String from,
        String to,
        long writeBytes,
        double gainSeconds,
        StepState state,
        long committedVersion) {
      this(column, from, to, writeBytes, gainSeconds, state, committedVersion, StepKind.MOVE, null);
    }

    Step done(long version) {
      return new Step(
          column,
          from,
          to,
          writeBytes,
          gainSeconds,
          StepState.DONE,
          version,
          kind,
          codec,
          secondsAfter);
    }

    /** Where the step leaves its column, for a person: the device, with the codec or the order. */
    public String target() {
      return MoveStep.target(kind, to, codec, column);
    }
  }

  /** A queue without progress (as written before it was kept). */
  public MoveQueue(
      String table,
      State state,
      ScheduleShape shape,
      double rate,
      double fullRate,
      long workingSetBytes,
      Map<String, Double> deviceRates,
      List<Step> steps,
      String reason,
      String error) {
    this(
        table,
        state,
        shape,
        rate,
        fullRate,
        workingSetBytes,
        deviceRates,
        steps,
        reason,
        error,
        Double.NaN,
        null);
  }

  public MoveQueue {
    deviceRates = Collections.unmodifiableMap(new TreeMap<>(deviceRates));
    steps = List.copyOf(steps);
  }

  /** A new queue for {@code proposal}'s steps of {@code table}, running. */
  public static MoveQueue of(String table, DesignProposal proposal, MoveSchedule schedule) {
    List<Step> steps = new ArrayList<>();
    for (MoveStep s : proposal.steps()) {
      steps.add(
          new Step(
              s.column().column(),
              s.from(),
              s.to(),
              s.writeBytes(),
              s.gainSeconds(),
              StepState.PENDING,
              0,
              s.kind(),
              s.codec(),
              s.secondsAfter()));
    }
    return new MoveQueue(
        table,
        State.RUNNING,
        schedule.shape(),
        schedule.rate(),
        schedule.fullRate(),
        schedule.workingSetBytes(),
        schedule.deviceRates(),
        steps,
        proposal.reason(),
        null,
        proposal.secondsNow(),
        null);
  }

  public MoveSchedule schedule() {
    return new MoveSchedule(shape, rate, fullRate, workingSetBytes, deviceRates);
  }

  /** This queue run by {@code next} (a resume at another rate). */
  public MoveQueue withSchedule(MoveSchedule next) {
    return new MoveQueue(
        table,
        state,
        next.shape(),
        next.rate(),
        next.fullRate(),
        next.workingSetBytes(),
        next.deviceRates(),
        steps,
        reason,
        error,
        secondsNow,
        progress);
  }

  public MoveQueue withState(State next, String why) {
    return with(next, steps, why, progress);
  }

  MoveQueue withStepDone(int index, long version) {
    List<Step> next = new ArrayList<>(steps);
    next.set(index, steps.get(index).done(version));
    return with(state, next, error, progress);
  }

  /** This queue with {@code next} as its progress. */
  public MoveQueue withProgress(Progress next) {
    return with(state, steps, error, next);
  }

  /** This queue, same table, schedule and proposal, with what a run changes. */
  private MoveQueue with(State state, List<Step> steps, String error, Progress progress) {
    return new MoveQueue(
        table,
        state,
        shape,
        rate,
        fullRate,
        workingSetBytes,
        deviceRates,
        steps,
        reason,
        error,
        secondsNow,
        progress);
  }

  /** Bytes of the steps done. */
  public long bytesDone() {
    return steps.stream()
        .filter(s -> s.state() == StepState.DONE)
        .mapToLong(Step::writeBytes)
        .sum();
  }

  public long bytesTotal() {
    return steps.stream().mapToLong(Step::writeBytes).sum();
  }

  // ---- the progress view (docs/physical-design.md, "The progress view")

  /**
   * The bytes step {@code index} has copied: all of a done one; of the one in flight, what the
   * runner last wrote (while the queue runs: a pause or a stop deletes the partial copy).
   */
  public long stepBytesDone(int index) {
    Step s = steps.get(index);
    if (s.state() == StepState.DONE) {
      return s.writeBytes();
    }
    if (state == State.RUNNING && progress != null && progress.step() == index) {
      return Math.min(Math.max(0, progress.stepBytesDone()), s.writeBytes());
    }
    return 0;
  }

  /** The bytes copied so far: the done steps' and the step in flight's. */
  public long bytesCopied() {
    long sum = 0;
    for (int i = 0; i < steps.size(); i++) {
      sum += stepBytesDone(i);
    }
    return sum;
  }

  /** The bytes per second measured since the run started or resumed, NaN before any copy. */
  public double measuredRate() {
    return progress != null && progress.rate() > 0 ? progress.rate() : Double.NaN;
  }

  /**
   * The seconds until every step is done: the bytes left at the measured rate, or at the configured
   * one before anything was measured; 0 once done, NaN once cancelled (nothing more runs).
   */
  public double etaSeconds() {
    if (state == State.CANCELLED) {
      return Double.NaN;
    }
    double r = Double.isNaN(measuredRate()) ? rate : measuredRate();
    return (bytesTotal() - bytesCopied()) / r;
  }

  /**
   * The predicted time of one workload run with the design as it is now: the last done step's
   * {@code secondsAfter}, or the time before any step (NaN when the queue predates them).
   */
  public double predictedSecondsNow() {
    for (int i = steps.size() - 1; i >= 0; i--) {
      if (steps.get(i).state() == StepState.DONE) {
        return steps.get(i).secondsAfter();
      }
    }
    return secondsNow;
  }

  // ---- persistence

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public static Path file(MosaicTable table) {
    return table.root().resolve(FILE);
  }

  /** The table's queue, if a transformation was ever started. */
  public static Optional<MoveQueue> read(MosaicTable table) {
    if (table.lockFree()) {
      return Optional.empty(); // a transformation is kept only beside a local table root
    }
    Path file = file(table);
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new MosaicException(
          MosaicException.Kind.CORRUPT,
          "the move queue "
              + file
              + " cannot be read ("
              + e.getMessage()
              + "); delete it to drop the transformation (moves already committed stay)",
          e);
    }
    try {
      List<Step> steps = new ArrayList<>();
      for (JsonNode s : root.required("steps")) {
        steps.add(
            new Step(
                s.required("column").asText(),
                s.required("from").asText(),
                s.required("to").asText(),
                s.required("writeBytes").asLong(),
                s.required("gainSeconds").asDouble(),
                StepState.valueOf(s.required("state").asText().toUpperCase(Locale.ROOT)),
                s.required("committedVersion").asLong(),
                // Queues written before step kinds hold only moves.
                s.hasNonNull("kind") ? StepKind.parse(s.get("kind").asText()) : StepKind.MOVE,
                s.hasNonNull("codec") ? codec(s.get("codec").asText()) : null,
                // Queues written before progress was kept have no predicted times.
                s.hasNonNull("secondsAfter") ? s.get("secondsAfter").asDouble() : Double.NaN));
      }
      // Queues written before rates per device have none: the transformation's rate for all.
      Map<String, Double> deviceRates = new TreeMap<>();
      root.path("deviceRates")
          .fields()
          .forEachRemaining(e -> deviceRates.put(e.getKey(), e.getValue().asDouble()));
      return Optional.of(
          new MoveQueue(
              root.required("table").asText(),
              State.valueOf(root.required("state").asText().toUpperCase(Locale.ROOT)),
              ScheduleShape.parse(root.required("shape").asText()),
              root.required("rate").asDouble(),
              root.required("fullRate").asDouble(),
              root.required("workingSetBytes").asLong(),
              deviceRates,
              steps,
              root.path("reason").asText(""),
              root.hasNonNull("error") ? root.get("error").asText() : null,
              root.hasNonNull("secondsNow") ? root.get("secondsNow").asDouble() : Double.NaN,
              progress(root.path("progress"))));
    } catch (IllegalArgumentException e) {
      throw new MosaicException(
          MosaicException.Kind.CORRUPT,
          "the move queue "
              + file
              + " is not one Mosaic wrote ("
              + e.getMessage()
              + "); delete it to drop the transformation (moves already committed stay)",
          e);
    }
  }

  private static Progress progress(JsonNode p) {
    if (!p.isObject()) {
      return null;
    }
    return new Progress(
        p.required("step").asInt(),
        p.required("stepBytesDone").asLong(),
        p.required("startedMillis").asLong(),
        p.required("rate").asDouble());
  }

  private static Codec codec(String name) {
    return Codec.fromConfigName(name)
        .orElseThrow(
            () -> new IllegalArgumentException("no codec '" + name + "'; " + Codec.allowed()));
  }

  /** The lock a change of the queue holds while it reads and writes it ({@link #update}). */
  static final String UPDATE_LOCK = "_design-moves.update.lock";

  // This JVM's changes of a queue, one at a time: an OS lock belongs to the process, and closing a
  // second descriptor of the file would drop it.
  private static final Map<Path, Object> UPDATING = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Reads the table's queue, changes it with {@code change} and writes it back, holding a lock
   * against every other change (this process's and others'), so a pause written by one is not lost
   * to the runner's progress written by another from the queue it read before. Empty, writing
   * nothing, when the table has no queue.
   */
  public static Optional<MoveQueue> update(
      MosaicTable table, java.util.function.UnaryOperator<MoveQueue> change) {
    return locked(
        table,
        () -> {
          Optional<MoveQueue> changed = read(table).map(change);
          changed.ifPresent(q -> q.write(table));
          return changed;
        });
  }

  /**
   * The file in the table's root that keeps a pause or cancel asked for while the transformation
   * was still being identified: the queue does not exist yet, and {@link #start} applies it.
   */
  static final String REQUEST = "_design-moves.request";

  /**
   * Changes the table's queue to {@code next} (paused or cancelled) as {@link #update} does; with
   * no queue yet, keeps the request for {@link #start} when {@code identifying} says that a live
   * process is still identifying the transformation.
   */
  public static Requested request(
      MosaicTable table, State next, java.util.function.BooleanSupplier identifying) {
    return locked(
        table,
        () -> {
          Optional<MoveQueue> queue = read(table);
          if (queue.isPresent()) {
            MoveQueue q = queue.get();
            MoveQueue changed = q.state() == State.DONE ? q : q.withState(next, null);
            changed.write(table);
            return new Requested(changed, false);
          }
          if (identifying.getAsBoolean()) {
            writeAtomically(table.root().resolve(REQUEST), next.spelling());
            return new Requested(null, true);
          }
          return new Requested(null, false);
        });
  }

  /**
   * What {@link #request} did: changed the queue (not null), kept the request for the
   * transformation being identified ({@code pending}), or neither (no transformation at all).
   */
  public record Requested(MoveQueue queue, boolean pending) {}

  /**
   * Writes a new queue, in the state a pause or cancel asked for while it was being identified
   * ({@link #request}), else as given; returns what was written.
   */
  public static MoveQueue start(MosaicTable table, MoveQueue queue) {
    return locked(
        table,
        () -> {
          MoveQueue started = queue;
          Optional<State> asked = takeRequest(table);
          if (asked.isPresent()) {
            started = queue.withState(asked.get(), null);
          }
          started.write(table);
          return started;
        });
  }

  /** Drops a request left by a pause or cancel for an identification that started no queue. */
  public static void dropRequest(MosaicTable table) {
    locked(table, () -> takeRequest(table));
  }

  private static Optional<State> takeRequest(MosaicTable table) {
    Path file = table.root().resolve(REQUEST);
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      Files.delete(file);
      return java.util.Arrays.stream(State.values())
          .filter(st -> st.spelling().equals(text))
          .findFirst();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw MosaicException.io("cannot read or remove " + file, e);
    }
  }

  // Runs body holding the queue's update lock (this JVM's threads and other processes).
  private static <T> T locked(MosaicTable table, java.util.function.Supplier<T> body) {
    Path lockFile = table.root().resolve(UPDATE_LOCK);
    synchronized (UPDATING.computeIfAbsent(lockFile, f -> new Object())) {
      try (java.nio.channels.FileChannel channel =
              java.nio.channels.FileChannel.open(
                  lockFile,
                  java.nio.file.StandardOpenOption.CREATE,
                  java.nio.file.StandardOpenOption.WRITE);
          java.nio.channels.FileLock ignored = channel.lock()) {
        return body.get();
      } catch (IOException e) {
        throw MosaicException.io(
            "cannot lock " + lockFile + " to change the table's move queue", e);
      }
    }
  }

  /** Writes the queue to the table's root atomically (a reader sees the old or the new one). */
  public void write(MosaicTable table) {
    ObjectNode root = JSON.createObjectNode();
    root.put("table", this.table);
    root.put("state", state.spelling());
    root.put("shape", shape.configName());
    root.put("rate", rate);
    root.put("fullRate", fullRate);
    root.put("workingSetBytes", workingSetBytes);
    deviceRates.forEach(root.putObject("deviceRates")::put);
    root.put("reason", reason);
    root.put("error", error);
    if (!Double.isNaN(secondsNow)) {
      root.put("secondsNow", secondsNow);
    }
    if (progress != null) {
      ObjectNode p = root.putObject("progress");
      p.put("step", progress.step());
      p.put("stepBytesDone", progress.stepBytesDone());
      p.put("startedMillis", progress.startedMillis());
      p.put("rate", progress.rate());
    }
    ArrayNode array = root.putArray("steps");
    for (Step s : steps) {
      ObjectNode o = array.addObject();
      o.put("column", s.column());
      o.put("from", s.from());
      o.put("to", s.to());
      o.put("writeBytes", s.writeBytes());
      o.put("gainSeconds", s.gainSeconds());
      o.put("state", s.state().spelling());
      o.put("committedVersion", s.committedVersion());
      o.put("kind", s.kind().configName());
      if (s.codec() != null) {
        o.put("codec", s.codec().configName());
      }
      if (!Double.isNaN(s.secondsAfter())) {
        o.put("secondsAfter", s.secondsAfter());
      }
    }
    try {
      writeAtomically(file(table), JSON.writeValueAsString(root));
    } catch (IOException e) {
      throw MosaicException.io("cannot write the move queue " + file(table), e);
    }
  }

  private static void writeAtomically(Path file, String text) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot write " + file, e);
    }
  }
}
