#pragma once
/// @file mttk.hpp
/// MTTK: the Martyna-Tobias-Klein barostat with Nose-Hoover chains on the particles and on the
/// barostat (Martyna, Tobias and Klein, J. Chem. Phys. 101, 4177 (1994); the splitting of
/// Tuckerman, Alejandre, Lopez-Rendon, Jochim and Martyna, J. Phys. A 39, 5629 (2006); the
/// orthorhombic form and the strain mass of LAMMPS's `fix npt`, Shinoda, Shiga and Mikami, Phys.
/// Rev. B 69, 134103 (2004)). Each moving edge a has the log-strain rate w_a (L_a' = w_a L_a) with
/// mass W = (N + 1) kT tau_p^2; with P_aa the instantaneous pressure (kinetic part and virial,
/// tail correction included), V the volume, K the kinetic energy and N the particles,
///
///     dw_a/dt = [V (P_aa - P0) + 2K / (3N)] / W   (isotropic: one w, P_aa the scalar pressure)
///     dv_a/dt = F_a / m - (w_a + sum_b w_b / (3N)) v_a
///     dx_a/dt = v_a + w_a x_a
///
/// and the chains' frictions. One step (every symbol a flow over the time written):
///
///     C_w(dt/2) C_v(dt/2) Wdot(dt/2) S(dt/2) B(dt/2) D(dt/2) A(dt) D(dt/2) F B(dt/2) S(dt/2)
///     Wdot(dt/2) C_v(dt/2) C_w(dt/2)
///
/// C_w and C_v: the Nose-Hoover chains (nose_hoover_chain.hpp) on the barostat's velocities
/// (degrees of freedom n: 1 isotropic, 3 anisotropic; masses n kT tau_p^2 and kT tau_p^2, where
/// LAMMPS gives the first kT tau_p^2 whatever n: the dynamics differ, the ensemble does not)
/// and on the particles'; Wdot: w += dt/2 dw/dt, with the
/// pressure of the latest forces and velocities; S: v_a *= exp(-dt/2 (w_a + sum_b w_b / (3N)));
/// D: the box edges and positions scaled by exp(w_a dt/2); B, A, F: velocity Verlet's. The
/// forces' virial is computed every step. Conserved: K + U + P0 V + sum_a W w_a^2 / 2
/// (isotropic: 3 W w^2 / 2) + both chains' energies.
///
/// With `every` = n > 1 the outer operators (C_w C_v Wdot S and their mirror) act only at the
/// ends of each block of n steps, over n dt/2 each, and the steps inside are B D A D F B with
/// the strain rates held: the multiple-time-step (RESPA) form of the same factorization
/// (Tuckerman et al. 2006, section 4; GROMACS's nstpcouple and nsttcouple for MTTK). The
/// kinetic and virial tensors are then read once a block, so the energy evaluation and the wait
/// for them come every n steps; the conserved quantity holds at the blocks' ends.
///
/// Isotropic and anisotropic coupling. With held distances the barostat acts on the molecules'
/// centres of mass, the equations above written for the centres (their positions, velocities,
/// masses and total forces in place of the particles'): N counts molecules, D scales the
/// centres, S damps the centres' velocities, K_aa and W_aa in Wdot are the centres' kinetic
/// tensor and the molecular virial (backend/molecule_pressure.hpp), which needs no constraint
/// forces; the particle chain acts on every particle's K as before, and the motion within each
/// molecule follows velocity Verlet with RATTLE.

#include <array>
#include <vector>

#include "novamd/integrate/barostat.hpp"
#include "novamd/integrate/integrator.hpp"
#include "novamd/integrate/nose_hoover_chain.hpp"

namespace novamd::integrate {

class MttkNoseHoover final : public Integrator {
 public:
  /// `kT`, `tau`, `chain`: the particles' thermostat (nose_hoover's keys); `barostat`: the
  /// target pressure, tau_p (`period`) and the coupling; `scaled`: N and the tail correction.
  MttkNoseHoover(double dt, double kT, double tau, int chain, const BarostatSettings& barostat,
                 const ScaledSystem& scaled, const SystemFreedom& system);
  std::string name() const override { return "nose_hoover"; }

  void start(StepOperations& ops) override;
  /// Both chains' energies, the barostat's kinetic energy and P0 V.
  double thermostat_energy(StepOperations& ops) override;
  bool computes_virial_at(std::int64_t step) const override { return step % every_ == 0; }

  /// The particle chain, the barostat chain, w (3), then the kinetic and virial tensors carried
  /// from the last step's end (6 + 6), and with molecules the particles' K (1).
  IntegratorState save() const override;
  void restore(const IntegratorState& state) override;

 private:
  void thermostat(StepOperations& ops, std::int64_t step, double dt, int index) override;
  void dilate(StepOperations& ops, double dt) override;
  /// Isotropic on particles: D A D as one dilation over both and a drift with the velocities
  /// scaled by exp(w second_dt) (x -> e^{w (t1 + t2)} x + e^{w t2} v dt, the same map); else
  /// the three passes.
  void dilate_drift_dilate(StepOperations& ops, double first_dt, double drift_dt, double second_dt,
                           VelocityCondition after) override;

  /// The barostat chain's half step on w.
  void thermostat_barostat(double dt);
  /// The particle chain's half step: scales the velocities and the carried kinetic tensor.
  void thermostat_particles(StepOperations& ops, double dt);
  /// w += dt dw/dt from the carried tensors at volume `volume`.
  void push_strain_rates(double volume, double dt);
  /// S(dt): the velocities' damping by the strain rates.
  void damp_velocities(StepOperations& ops, double dt);
  /// The kinetic and virial tensors now (the last evaluation's virial, tail correction added).
  void measure(StepOperations& ops);
  /// sum_a W w_a^2 over the moving edges (twice the barostat's kinetic energy).
  double twice_barostat_kinetic() const;

  BarostatSettings barostat_;
  ScaledSystem scaled_;
  double kT_, strain_mass_;
  int moving_;          ///< the barostat's degrees of freedom: 1 (isotropic) or 3 (anisotropic)
  std::int64_t every_;  ///< steps of a block: the outer operators act at its ends
  NoseHooverChainState particle_chain_, barostat_chain_;
  std::array<double, 3> strain_rate_{};  ///< w_a (isotropic: all three equal)
  /// Carried from the last step's end: the kinetic and virial tensors the pressure is made of
  /// (StepOperations::kinetic_and_virial) and the particles' kinetic energy.
  core::SymmetricTensor<double> kinetic_, virial_;
  double kinetic_energy_ = 0.0;
};

}  // namespace novamd::integrate
