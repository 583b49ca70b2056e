#include "fem/pipeline/temperature_stage.hpp"

#include <iomanip>
#include <sstream>

#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/resources/method_choice.hpp"

namespace fem {

std::vector<double> solve_temperature_field(const Case& c, const Mesh& mesh, const SolverOptions& options,
                                            Executor& executor, PhaseLog& phases) {
  const Case heat = load_case(c.temperature->from);
  if (heat.physics.type != PhysicsType::Heat)
    throw CaseError(c.file.string() + ":" + std::to_string(c.temperature->line) + ": 'loads.temperature.from' names " +
                    heat.file.string() + ", which is not a heat case (physics.type: heat)");
  // Fluxes and convection weigh by 2 pi r in one and by the thickness in the other: different fields.
  const bool axisymmetric = c.physics.model == ElasticModel::Axisymmetric;
  if ((heat.physics.model == ElasticModel::Axisymmetric) != axisymmetric)
    throw CaseError(c.file.string() + ":" + std::to_string(c.temperature->line) + ": 'loads.temperature.from' names " +
                    heat.file.string() + (axisymmetric ? ", which is not axisymmetric as this case is"
                                                       : ", which is axisymmetric and this case is not") +
                    " (physics.model: axisymmetric in both or neither)");
  std::vector<double> temperature;
  phases.run("heat", [&] {
    const Problem problem = build_problem(heat, mesh);
    const auto graph =
        renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    // The heat system is solved with this case's solver settings; auto chooses for its size.
    Case heat_as_solved = heat;
    static_cast<SolverOptions&>(heat_as_solved.solver) = options;
    resources::resolve_auto_method(heat_as_solved, graph, mesh.dimension, 1);
    const SolverOptions& heat_options = heat_as_solved.solver;
    NodeOrdering ordering = order_nodes(graph, c.solver.renumber, heat_options.method, 1);
    executor.place_nodes(problem, graph, ordering);
    auto solver = make_solver(heat_options);
    const bool by_elements = solver->uses_element_matrices();
    DiscreteSystem system(problem, graph, ordering);
    ProgressMeter progress(heat_options);
    executor.assemble(system, by_elements, progress);
    const SolveOutcome solved = executor.solve(system, *solver, heat_options, by_elements);
    const AnswerVerdict verdict = judge_answer(heat_options, solved.report, solved.residual, c.solver.require_convergence);
    const NodalArray solved_temperature = executor.recover(problem, system, solved.solution).temperature;
    temperature.assign(solved_temperature.begin(), solved_temperature.end());
    std::ostringstream s;
    s << heat.file.filename().string() << " solved on this mesh: " << with_commas(system.dofs().num_dofs())
      << " equations, " << heat_options.method << ", residual "
      << std::scientific << std::setprecision(2) << solved.residual;
    if (!verdict.converged) s << " NOT CONVERGED: " << verdict.reason;
    return s.str();
  });
  return temperature;
}

}  // namespace fem
