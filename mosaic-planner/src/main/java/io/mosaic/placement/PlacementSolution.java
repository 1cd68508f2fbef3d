package io.mosaic.placement;

import java.util.List;
import org.optaplanner.core.api.domain.solution.PlanningEntityCollectionProperty;
import org.optaplanner.core.api.domain.solution.PlanningScore;
import org.optaplanner.core.api.domain.solution.PlanningSolution;
import org.optaplanner.core.api.domain.solution.ProblemFactProperty;
import org.optaplanner.core.api.domain.valuerange.ValueRangeProvider;
import org.optaplanner.core.api.score.buildin.hardsoftlong.HardSoftLongScore;

/** OptaPlanner's view of a placement problem: the columns to place and the devices' indexes. */
@PlanningSolution
public class PlacementSolution {
  private List<ColumnAssignment> assignments;
  private List<Integer> devices;
  private ScoreTables tables;
  private HardSoftLongScore score;

  public PlacementSolution() {}

  PlacementSolution(List<ColumnAssignment> assignments, List<Integer> devices, ScoreTables tables) {
    this.assignments = assignments;
    this.devices = devices;
    this.tables = tables;
  }

  @PlanningEntityCollectionProperty
  public List<ColumnAssignment> getAssignments() {
    return assignments;
  }

  public void setAssignments(List<ColumnAssignment> assignments) {
    this.assignments = assignments;
  }

  @ValueRangeProvider(id = "devices")
  public List<Integer> getDevices() {
    return devices;
  }

  public void setDevices(List<Integer> devices) {
    this.devices = devices;
  }

  @ProblemFactProperty
  public ScoreTables getTables() {
    return tables;
  }

  public void setTables(ScoreTables tables) {
    this.tables = tables;
  }

  @PlanningScore
  public HardSoftLongScore getScore() {
    return score;
  }

  public void setScore(HardSoftLongScore score) {
    this.score = score;
  }
}
