package io.mosaic.table;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import java.util.Map;

/**
 * One ALTER TABLE change of a table's columns, committed by {@link MosaicTable#alter} as a new
 * version (docs/format.md, "Column ids"). Columns are named as SQL names them: ignoring case.
 */
public sealed interface SchemaChange {
  /** What the change does, for messages and the version's operation. */
  String describe();

  /**
   * Adds {@code column} after the last one, under a new column id; rows already written read NULL
   * in it, so it must be nullable unless the table has no rows. {@code properties} are set in the
   * same version (an engine's notes on the column, e.g. Trino's varchar length).
   */
  record AddColumn(ColumnSpec column, Map<String, String> properties) implements SchemaChange {
    public AddColumn {
      properties = Map.copyOf(properties);
    }

    public AddColumn(ColumnSpec column) {
      this(column, Map.of());
    }

    @Override
    public String describe() {
      return "add column "
          + column.name()
          + " "
          + column.type()
          + (column.nullable() ? "" : " not null");
    }
  }

  /** Drops column {@code name}; its segments stay until gc retires the versions that name them. */
  record DropColumn(String name) implements SchemaChange {
    @Override
    public String describe() {
      return "drop column " + name;
    }
  }

  /** Renames column {@code from} to {@code to}; its id, segments and placement stay. */
  record RenameColumn(String from, String to) implements SchemaChange {
    @Override
    public String describe() {
      return "rename column " + from + " to " + to;
    }
  }

  /**
   * Widens column {@code name} to {@code type} ({@link ColumnType#widensFrom}); no segment is
   * rewritten: old ones keep their Parquet type and are widened as they are read. {@code
   * properties} are set in the same version (an engine's notes on the column); one whose value is
   * empty is removed.
   */
  record SetColumnType(String name, ColumnType type, Map<String, String> properties)
      implements SchemaChange {
    public SetColumnType {
      properties = Map.copyOf(properties);
    }

    public SetColumnType(String name, ColumnType type) {
      this(name, type, Map.of());
    }

    @Override
    public String describe() {
      return "set column " + name + " type " + type;
    }
  }
}
