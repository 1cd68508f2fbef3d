package io.mosaic.placement;

import org.optaplanner.core.api.domain.entity.PlanningEntity;
import org.optaplanner.core.api.domain.entity.PlanningPin;
import org.optaplanner.core.api.domain.variable.PlanningVariable;

/**
 * One column's place, the planning entity OptaPlanner moves: the row {@code I[.][c]} of Eq. 3 as
 * the index of the one device it is on (Eq. 6a holds by construction).
 */
@PlanningEntity
public class ColumnAssignment {
  private int column;
  private boolean pinned;

  @PlanningVariable(valueRangeProviderRefs = "devices")
  private Integer device;

  public ColumnAssignment() {}

  ColumnAssignment(int column, Integer device, boolean pinned) {
    this.column = column;
    this.device = device;
    this.pinned = pinned;
  }

  public int getColumn() {
    return column;
  }

  @PlanningPin
  public boolean isPinned() {
    return pinned;
  }

  public Integer getDevice() {
    return device;
  }

  public void setDevice(Integer device) {
    this.device = device;
  }
}
