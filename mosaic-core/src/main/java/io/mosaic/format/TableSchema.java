package io.mosaic.format;

import io.mosaic.MosaicException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.MessageType;

/**
 * The columns of a table, in order. Column names are unique ignoring case, as in SQL.
 *
 * <p>Each column has an id (docs/format.md, "Column ids"), assigned when the column is created and
 * never reused: {@code nextColumnId} is above every id the table ever gave, so a column dropped and
 * added again under the same name is a new column. The id names the column's segment folder ({@code
 * <table id>/<column id>/}) and survives a rename. A schema built without ids (a new table, a
 * manifest written before ids) numbers its columns by position from 0, which is the folder a column
 * had before ids.
 *
 * @param ids the id of each column, in the order of {@code columns}
 * @param nextColumnId the id the next added column gets
 */
public record TableSchema(List<ColumnSpec> columns, List<Integer> ids, int nextColumnId)
    implements Serializable {
  public TableSchema {
    columns = List.copyOf(columns);
    ids = List.copyOf(ids);
    if (columns.isEmpty()) {
      throw MosaicException.invalid("a table needs at least one column");
    }
    if (ids.size() != columns.size()) {
      throw MosaicException.invalid(
          ids.size() + " column ids for " + columns.size() + " columns " + names(columns));
    }
    Set<Integer> seenIds = new HashSet<>();
    for (int id : ids) {
      if (id < 0 || id >= nextColumnId || !seenIds.add(id)) {
        throw MosaicException.invalid(
            "column ids "
                + ids
                + " are not distinct ids from 0 below the next column id "
                + nextColumnId);
      }
    }
    Set<String> seen = new HashSet<>();
    for (ColumnSpec c : columns) {
      if (c.name().isEmpty() || c.name().contains("/") || c.name().contains("\0")) {
        throw MosaicException.invalid(
            "column name '" + c.name() + "' is not allowed: it must be non-empty, without '/'");
      }
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw MosaicException.invalid("column '" + c.name() + "' appears twice");
      }
    }
  }

  /** Columns numbered by position: ids 0..n-1 (a new table, or a manifest written before ids). */
  public TableSchema(List<ColumnSpec> columns) {
    this(columns, positions(columns.size()), columns.size());
  }

  private static List<Integer> positions(int n) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(i);
    }
    return ids;
  }

  private static List<String> names(List<ColumnSpec> columns) {
    return columns.stream().map(ColumnSpec::name).toList();
  }

  /** Whether the columns are numbered by position (as a schema written before ids was). */
  public boolean positionalIds() {
    return ids.equals(positions(columns.size())) && nextColumnId == columns.size();
  }

  /** The id of column {@code name}. */
  public int idOf(String name) {
    return ids.get(indexOf(name));
  }

  /** The column with id {@code id}, or null if this schema has none (it was dropped). */
  public ColumnSpec byId(int id) {
    int i = ids.indexOf(id);
    return i < 0 ? null : columns.get(i);
  }

  /** Whether the columns are the same (names, types, nullability), whatever their ids. */
  public boolean sameColumns(TableSchema other) {
    return columns.equals(other.columns);
  }

  /** This schema with {@code column} added at the end, under a new id. */
  public TableSchema withColumn(ColumnSpec column) {
    List<ColumnSpec> cs = new ArrayList<>(columns);
    cs.add(column);
    List<Integer> is = new ArrayList<>(ids);
    is.add(nextColumnId);
    return new TableSchema(cs, is, nextColumnId + 1);
  }

  /** This schema without column {@code name}; its id is not given again. */
  public TableSchema withoutColumn(String name) {
    int i = indexOf(name);
    if (columns.size() == 1) {
      throw MosaicException.invalid(
          "cannot drop column '"
              + columns.get(0).name()
              + "': it is the table's only column; drop the table instead");
    }
    List<ColumnSpec> cs = new ArrayList<>(columns);
    cs.remove(i);
    List<Integer> is = new ArrayList<>(ids);
    is.remove(i);
    return new TableSchema(cs, is, nextColumnId);
  }

  /** This schema with column {@code from} named {@code to}; its id, type and place stay. */
  public TableSchema withColumnRenamed(String from, String to) {
    int i = indexOf(from);
    ColumnSpec c = columns.get(i);
    List<ColumnSpec> cs = new ArrayList<>(columns);
    cs.set(i, new ColumnSpec(to, c.type(), c.nullable()));
    return new TableSchema(cs, ids, nextColumnId);
  }

  /** This schema with column {@code name} of type {@code type}; its id, name and place stay. */
  public TableSchema withColumnType(String name, ColumnType type) {
    int i = indexOf(name);
    ColumnSpec c = columns.get(i);
    List<ColumnSpec> cs = new ArrayList<>(columns);
    cs.set(i, new ColumnSpec(c.name(), type, c.nullable()));
    return new TableSchema(cs, ids, nextColumnId);
  }

  /** Maps an Arrow schema; nested or unsupported types are a clear error naming the column. */
  public static TableSchema fromArrow(Schema schema) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (Field f : schema.getFields()) {
      if (!f.getChildren().isEmpty()) {
        throw MosaicException.unsupported(
            "column '"
                + f.getName()
                + "' is nested ("
                + f.getType()
                + "); Mosaic stores flat columns only: "
                + ColumnType.SUPPORTED);
      }
      columns.add(ColumnSpec.fromArrow(f));
    }
    return new TableSchema(columns);
  }

  public Schema arrowSchema() {
    return new Schema(columns.stream().map(ColumnSpec::arrowField).toList());
  }

  /** The one-column Parquet schema of a segment of {@code column}. */
  public static MessageType segmentSchema(ColumnSpec column) {
    return new MessageType(
        "mosaic_segment", column.type().parquetType(column.name(), column.nullable()));
  }

  public ColumnSpec column(String name) {
    for (ColumnSpec c : columns) {
      if (c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw MosaicException.notFound(
        "unknown column '"
            + name
            + "'; the table has: "
            + String.join(", ", columns.stream().map(ColumnSpec::name).toList()));
  }

  public int indexOf(String name) {
    return columns.indexOf(column(name));
  }

  public List<String> names() {
    return columns.stream().map(ColumnSpec::name).toList();
  }
}
