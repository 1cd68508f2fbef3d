package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.segment.SegmentReaders;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.RowCondition;
import io.mosaic.table.TableConflictException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rows of a version a {@link Predicate} matches, by position: what a replace-where deletes
 * ({@link MosaicTable#replaceWhere}; docs/spark.md, "Row-level changes"). SQL's semantics, as the
 * engines evaluate the condition: a NULL never satisfies a comparison (only {@code is null} matches
 * it), strings compare by their UTF-8 bytes, decimals by value, {@code char(n)} as if padded with
 * spaces, floating-point numbers as Spark compares them ({@code NaN} equals itself and is above
 * every other value, {@code -0.0} equals {@code 0.0}). Deleted rows are not matched again.
 *
 * <p>Only the predicate's columns are read, and only of the row groups whose statistics do not rule
 * it out ({@link RowGroupFilter}); terms on floating-point columns do not prune, since the
 * statistics keep no NaN and order {@code -0.0} below {@code 0.0}.
 */
public final class RowMatcher implements RowCondition {
  private final MosaicTable table;
  private final Predicate predicate;
  // Column ids of the predicate's columns in the first version matched: a later version must name
  // the same columns (an ALTER TABLE since may have renamed one to another's name).
  private Map<String, Integer> ids;

  public RowMatcher(MosaicTable table, Predicate predicate) {
    this.table = table;
    this.predicate = predicate;
  }

  /** The predicate's matches among all row groups of {@code version}. */
  public Map<Integer, DeletedRows> matches(Manifest version) throws IOException {
    return matches(version, 0);
  }

  @Override
  public synchronized Map<Integer, DeletedRows> matches(Manifest version, int firstRowGroup)
      throws IOException {
    List<RowGroupFilter.Bound> terms;
    try {
      terms = RowGroupFilter.bindTerms(table.name(), version, predicate);
    } catch (MosaicException e) {
      if (ids == null) {
        throw e;
      }
      throw columnsChanged(version); // bound before: a column was renamed or dropped since
    }
    checkSameColumns(version, terms);
    List<ColumnPredicate> prunable = new ArrayList<>();
    for (RowGroupFilter.Bound t : terms) {
      if (!floating(t.column()) || !comparison(t.predicate().op())) {
        prunable.add(t.predicate());
      }
    }
    List<Integer> groups =
        RowGroupFilter.bind(table.name(), version, new Predicate(prunable))
            .select(firstRowGroup, version.rowGroups().size());
    List<Term> tests = terms.stream().map(Term::new).toList();
    List<ColumnSpec> columns = new ArrayList<>();
    for (Term t : tests) {
      if (!columns.contains(t.column)) {
        columns.add(t.column);
      }
    }
    Map<Integer, DeletedRows> matched = new TreeMap<>();
    try (BufferAllocator alloc = new RootAllocator();
        SegmentReaders readers = new SegmentReaders(table.name(), table.pool(), version)) {
      for (int g : groups) {
        int rows = (int) (long) version.rowGroups().get(g);
        DeletedRows deleted = version.deletedRows(g);
        if (deleted != null && deleted.count() >= rows) {
          continue;
        }
        Map<ColumnSpec, FieldVector> vectors = new LinkedHashMap<>();
        try {
          for (ColumnSpec c : columns) {
            vectors.put(c, readers.read(c.name(), g, alloc));
          }
          RoaringBitmap hits = new RoaringBitmap();
          int[] live =
              deleted == null ? DeletedRows.of().livePositions(rows) : deleted.livePositions(rows);
          for (int r : live) {
            boolean all = true;
            for (Term t : tests) {
              if (!t.test(vectors.get(t.column), r)) {
                all = false;
                break;
              }
            }
            if (all) {
              hits.add(r);
            }
          }
          if (!hits.isEmpty()) {
            matched.put(g, DeletedRows.of(hits));
          }
        } finally {
          vectors.values().forEach(FieldVector::close);
        }
      }
    }
    return matched;
  }

  private void checkSameColumns(Manifest version, List<RowGroupFilter.Bound> terms) {
    Map<String, Integer> now = new HashMap<>();
    for (RowGroupFilter.Bound t : terms) {
      now.put(t.column().name(), version.schema().idOf(t.column().name()));
    }
    if (ids == null) {
      ids = now;
    } else if (!ids.equals(now)) {
      throw columnsChanged(version);
    }
  }

  private TableConflictException columnsChanged(Manifest version) {
    return new TableConflictException(
        "the condition '"
            + predicate
            + "' on table "
            + table.name()
            + " names other columns in v"
            + version.version()
            + " (an ALTER TABLE renamed or dropped one since the write started); nothing was"
            + " committed, run the statement again");
  }

  private static boolean floating(ColumnSpec column) {
    ColumnType.Kind k = column.type().kind();
    return k == ColumnType.Kind.FLOAT || k == ColumnType.Kind.DOUBLE;
  }

  private static boolean comparison(ColumnPredicate.Op op) {
    return op != ColumnPredicate.Op.IS_NULL && op != ColumnPredicate.Op.IS_NOT_NULL;
  }

  /** One bound term, testing rows of its column's vector. */
  static final class Term {
    final ColumnSpec column;
    private final ColumnPredicate.Op op;
    private final ColumnType.Kind kind;
    // The term's values as rows are compared with them (strings as UTF-8 bytes); no nulls.
    private final List<Object> values = new ArrayList<>();

    Term(RowGroupFilter.Bound bound) {
      this.column = bound.column();
      this.op = bound.predicate().op();
      this.kind = column.type().kind();
      for (Object v : bound.values()) {
        if (v != null) { // an IN list's NULL equals nothing
          values.add(v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : v);
        }
      }
    }

    boolean test(FieldVector vector, int row) {
      if (op == ColumnPredicate.Op.IS_NULL) {
        return vector.isNull(row);
      }
      if (vector.isNull(row)) {
        return false; // a comparison with NULL is never true
      }
      if (op == ColumnPredicate.Op.IS_NOT_NULL) {
        return true;
      }
      Object value = value(vector, row);
      return switch (op) {
        case EQ -> compare(value, values.get(0)) == 0;
        case LT -> compare(value, values.get(0)) < 0;
        case LE -> compare(value, values.get(0)) <= 0;
        case GT -> compare(value, values.get(0)) > 0;
        case GE -> compare(value, values.get(0)) >= 0;
        case BETWEEN -> compare(value, values.get(0)) >= 0 && compare(value, values.get(1)) <= 0;
        case IN -> values.stream().anyMatch(v -> compare(value, v) == 0);
        case IS_NULL, IS_NOT_NULL -> throw new AssertionError(op);
      };
    }

    /** Row {@code row}'s value in the statistics' types (strings and UUIDs as bytes). */
    private Object value(FieldVector v, int row) {
      return switch (kind) {
        case BOOLEAN -> ((BitVector) v).get(row) == 1;
        case INT8, INT16, INT32, INT64 -> ((BaseIntVector) v).getValueAsLong(row);
        case DATE -> (long) ((DateDayVector) v).get(row);
        case TIMESTAMP, TIMESTAMP_TZ -> ((TimeStampVector) v).get(row);
        case TIME -> ((TimeMicroVector) v).get(row);
        case FLOAT -> (double) ((Float4Vector) v).get(row);
        case DOUBLE -> ((Float8Vector) v).get(row);
        case DECIMAL -> ((DecimalVector) v).getObject(row);
        case STRING, CHAR -> ((VarCharVector) v).get(row);
        case UUID -> ((FixedSizeBinaryVector) v).get(row);
        // RowGroupFilter refuses comparisons of binaries: only null tests reach here.
        case BINARY -> throw new AssertionError("binary comparison");
      };
    }

    private int compare(Object a, Object b) {
      return switch (kind) {
        case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
        case FLOAT, DOUBLE -> {
          // Spark's order of doubles (SQLOrderingUtil.compareDoubles): -0.0 = 0.0, NaN = NaN and
          // above all others.
          double x = (Double) a;
          double y = (Double) b;
          yield x == y ? 0 : Double.compare(x, y);
        }
        case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
        case CHAR -> padded((byte[]) a, (byte[]) b);
        case STRING, UUID, BINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        default -> Long.compare((Long) a, (Long) b);
      };
    }

    /** char(n) order: both values as if padded with spaces to the longer one's length. */
    private static int padded(byte[] a, byte[] b) {
      int n = Math.max(a.length, b.length);
      for (int i = 0; i < n; i++) {
        int x = i < a.length ? a[i] & 0xff : ' ';
        int y = i < b.length ? b[i] & 0xff : ' ';
        if (x != y) {
          return Integer.compare(x, y);
        }
      }
      return 0;
    }
  }
}
