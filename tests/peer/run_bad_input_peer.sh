#!/usr/bin/env bash
# Builds every bad-input catalogue program (tests/mpi/bad_input_*.c, docs/errors.md) with
# Debian's MPICH or Open MPI and runs each at 2 ranks with BAD_INPUT_PEER set: the rows
# marked STD (the standard names the class, or both peers agree) must return an error of
# the row's class. IMPL rows are not made (shmpi's promise, undefined elsewhere). Per peer,
# BAD_INPUT_CLASS_DIFFERS lists rows where the peer returns an error of another class
# than the one MPI-4.1 names, BAD_INPUT_UNCHECKED rows it does not detect (or crashes
# on): one id a line, with the reason. A run passes when it exits 0 and rank 0 printed
# "ok: <title>: N of M rows checked".
# Usage: run_bad_input_peer.sh mpich|openmpi TESTS_MPI_DIR
peer=$1 src=$2
source "$(dirname "$0")/peer_lib.sh"
progs=()
for f in "$src"/bad_input_*.c; do
  p=$(basename "$f" .c)
  peer_build "$p"
  progs+=("$p")
done
[ ${#progs[@]} -gt 0 ] || fail "no bad_input_*.c in $src"

if [ "$peer" = mpich ]; then  # MPICH 4.0.2
  differs=(
    # RMA, collectives, ops:
    allreduce_type                # MPI_DATATYPE_NULL / uncommitted type in a reduction: MPI_ERR_OP; 9.4 names MPI_ERR_TYPE
    allreduce_type_c              # same
    allreduce_type_init           # same
    allreduce_type_init_c         # same
    allreduce_uncommitted         # same
    allreduce_uncommitted_c       # same
    allreduce_uncommitted_init    # same
    allreduce_uncommitted_init_c  # same
    exscan_type                   # same
    exscan_type_c                 # same
    exscan_type_init              # same
    exscan_type_init_c            # same
    iallreduce_type               # same
    iallreduce_type_c             # same
    iallreduce_uncommitted        # same
    iallreduce_uncommitted_c      # same
    iexscan_type                  # same
    iexscan_type_c                # same
    ireduce_type                  # same
    ireduce_type_c                # same
    irsblock_type                 # same
    irsblock_type_c               # same
    irscat_type                   # same
    irscat_type_c                 # same
    iscan_type                    # same
    iscan_type_c                  # same
    lock_type                     # same
    reduce_type                   # same
    reduce_type_c                 # same
    reduce_type_init              # same
    reduce_type_init_c            # same
    rl_type_null                  # same
    rlc_type_null                 # same
    rsblock_type                  # same
    rsblock_type_c                # same
    rsblock_type_init             # same
    rsblock_type_init_c           # same
    rscat_type                    # same
    rscat_type_c                  # same
    rscat_type_init               # same
    rscat_type_init_c             # same
    scan_type                     # same
    scan_type_c                   # same
    scan_type_init                # same
    scan_type_init_c              # same
    allreduce_count_init          # negative count (nonblocking, persistent): MPI_ERR_OTHER; 9.4 names MPI_ERR_COUNT
    allreduce_count_init_c        # same
    exscan_count_init             # same
    exscan_count_init_c           # same
    iallreduce_count              # same
    iallreduce_count_c            # same
    iexscan_count                 # same
    iexscan_count_c               # same
    ireduce_count                 # same
    ireduce_count_c               # same
    irsblock_count                # same
    irsblock_count_c              # same
    iscan_count                   # same
    iscan_count_c                 # same
    reduce_count_init             # same
    reduce_count_init_c           # same
    rsblock_count_init            # same
    rsblock_count_init_c          # same
    scan_count_init               # same
    scan_count_init_c             # same
    acc_before                    # target_disp -1: MPI_ERR_DISP; 9.4 names MPI_ERR_RMA_RANGE (target outside the window)
    acc_before_c                  # same
    cas_before                    # same
    fop_before                    # same
    gacc_before                   # same
    gacc_before_c                 # same
    get_before                    # same
    get_before_c                  # same
    put_before                    # same
    put_before_c                  # same
    racc_before                   # same
    racc_before_c                 # same
    rgacc_before                  # same
    rgacc_before_c                # same
    rget_before                   # same
    rget_before_c                 # same
    rput_before                   # same
    rput_before_c                 # same
    fence_assert                  # undefined assert bits: MPI_ERR_ARG; 9.4 names MPI_ERR_ASSERT
    lock_all_assert               # same
    lock_assert                   # same
    post_assert                   # same
    start_assert                  # same
    info_set_info           # MPI_INFO_NULL: MPICH answers MPI_ERR_ARG, MPI-4.1 9.4 names MPI_ERR_INFO
    info_delete_info        # same
    info_get_info           # same
    info_get_valuelen_info  # same
    info_get_nkeys_info     # same
    info_get_nthkey_info    # same
    info_dup_info           # same
    info_free_null          # same
    info_get_string_info    # same
  )
  unchecked=(
    # RMA, collectives, ops:
    acc_op_type         # MPI_BAND on MPI_FLOAT accepted by the accumulate calls
    acc_op_type_c       # same
    fop_op_type         # same
    gacc_op_type        # same
    gacc_op_type_c      # same
    racc_op_type        # same
    racc_op_type_c      # same
    rgacc_op_type       # same
    rgacc_op_type_c     # same
    unlock_other        # MPI_Win_unlock of a target not locked: crashes
    attach_overlap      # an overlapping region is attached
    detach_base         # detaching an address never attached succeeds
    acc_unattached      # dynamic window: an address no attached region covers is not checked
    acc_unattached_c    # same
    cas_unattached      # same
    fop_unattached      # same
    gacc_unattached     # same
    gacc_unattached_c   # same
    get_unattached      # same
    get_unattached_c    # same
    put_unattached      # same
    put_unattached_c    # same
    racc_unattached     # same
    racc_unattached_c   # same
    rgacc_unattached    # same
    rgacc_unattached_c  # same
    rget_unattached     # same
    rget_unattached_c   # same
    rput_unattached     # same
    rput_unattached_c   # same
    flush_local_other   # flush of a target not locked accepted
    flush_other         # same
    rl_count            # negative count: segfault in MPI_Reduce_local
    rlc_count           # same
    allreduce_count     # negative count: segfault in the blocking reduction (caught by the guard page)
    allreduce_count_c   # same
    exscan_count        # same
    exscan_count_c      # same
    reduce_count        # same
    reduce_count_c      # same
    rsblock_count       # same
    rsblock_count_c     # same
    scan_count          # same
    scan_count_c        # same
    racc_fence          # request-based RMA in a fence epoch accepted (13.3.5: passive target only)
    racc_fence_c        # same
    rgacc_fence         # same
    rgacc_fence_c       # same
    rget_fence          # same
    rget_fence_c        # same
    rput_fence          # same
    rput_fence_c        # same
    acc_past_end        # target range past the window not checked: the access runs past it (guard page)
    acc_past_end_c      # same
    acc_too_long        # same
    acc_too_long_c      # same
    cas_past_end        # same
    fop_past_end        # same
    gacc_past_end       # same
    gacc_past_end_c     # same
    get_past_end        # same
    get_past_end_c      # same
    get_too_long        # same
    get_too_long_c      # same
    put_past_end        # same
    put_past_end_c      # same
    put_too_long        # same
    put_too_long_c      # same
    racc_past_end       # same
    racc_past_end_c     # same
    racc_too_long       # same
    racc_too_long_c     # same
    rgacc_past_end      # same
    rgacc_past_end_c    # same
    rget_past_end       # same
    rget_past_end_c     # same
    rget_too_long       # same
    rget_too_long_c     # same
    rput_past_end       # same
    rput_past_end_c     # same
    rput_too_long       # same
    rput_too_long_c     # same
  )
else  # Open MPI 4.1.4
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  # osc/rdma (the default) refuses MPI_Win_create on MPI_COMM_SELF and segfaults in
  # MPI_Compare_and_swap; osc/sm takes the allocate windows, osc/pt2pt the others
  # (as in run_rma_peer.sh).
  export OMPI_MCA_osc=sm,pt2pt
  differs=(
    # RMA, collectives, ops:
    allreduce_type          # MPI_DATATYPE_NULL / uncommitted type in a reduction: MPI_ERR_OP; 9.4 names MPI_ERR_TYPE
    allreduce_uncommitted   # same
    exscan_type             # same
    iallreduce_type         # same
    iallreduce_uncommitted  # same
    iexscan_type            # same
    ireduce_type            # same
    irsblock_type           # same
    irscat_type             # same
    iscan_type              # same
    reduce_type             # same
    rl_type_null            # same
    rsblock_type            # same
    rscat_type              # same
    scan_type               # same
    lock_again              # second lock on a locked target: MPI_ERR_RMA_CONFLICT; 9.4 names MPI_ERR_RMA_SYNC
    acc_before              # target_disp -1: MPI_ERR_DISP; 9.4 names MPI_ERR_RMA_RANGE (target outside the window)
    cas_before              # same
    fop_before              # same
    gacc_before             # same
    get_before              # same
    put_before              # same
    racc_before             # same
    rgacc_before            # same
    rget_before             # same
    rput_before             # same
    comm_free_keyval_invalid     # invalid keyvals: Open MPI answers MPI_ERR_OTHER, 9.4 names MPI_ERR_KEYVAL
    comm_free_keyval_kind        # same
    comm_free_keyval_predefined  # same
    comm_set_attr_invalid        # same
    comm_set_attr_kind           # same
    comm_set_attr_predefined     # same
    comm_delete_attr_invalid     # same
    comm_delete_attr_kind        # same
    comm_delete_attr_predefined  # same
    type_free_keyval_invalid     # same
    type_free_keyval_kind        # same
    type_set_attr_invalid        # same
    type_set_attr_kind           # same
    type_delete_attr_invalid     # same
    type_delete_attr_kind        # same
    win_free_keyval_invalid      # same
    win_free_keyval_kind         # same
    win_set_attr_invalid         # same
    win_set_attr_kind            # same
    win_set_attr_predefined      # same
    win_delete_attr_invalid      # same
    win_delete_attr_kind         # same
  )
  unchecked=(
    # RMA, collectives, ops:
    fop_op_type              # MPI_BAND on MPI_FLOAT accepted by the accumulate calls
    allgather_comm           # MPI_COMM_NULL: segfault in MPI_Allgather
    iallgather_comm          # same
    cas_float                # MPI_FLOAT accepted by MPI_Compare_and_swap (13.3.4.4)
    post_group               # MPI_GROUP_NULL accepted
    start_group              # same
    fop_op_null              # MPI_OP_NULL: MPI_Fetch_and_op fails fatally or crashes
    free_epoch               # MPI_Win_free in a lock_all epoch frees the window
    fop_user_op              # a user op accepted by MPI_Fetch_and_op (13.3.4: predefined only)
    attach_overlap           # an overlapping region is attached
    attach_flavor            # attach/detach on a non-dynamic window accepted
    detach_flavor            # same
    fence_pscw               # conflicting epoch not detected (osc/pt2pt): the call succeeds
    lock_all_lock            # same
    lock_all_pscw            # same
    lock_lock_all            # same
    lock_pscw                # same
    unlock_all_lock          # same
    detach_base              # detaching an address never attached succeeds
    shared_disp              # disp_unit 0 accepted by MPI_Win_allocate_shared
    acc_unattached           # dynamic window: an address no attached region covers is not checked
    cas_unattached           # same
    fop_unattached           # same
    gacc_unattached          # same
    get_unattached           # same
    put_unattached           # same
    racc_unattached          # same
    rgacc_unattached         # same
    rget_unattached          # same
    rput_unattached          # same
    flush_local_other        # flush of a target not locked accepted
    flush_other              # same
    allgatherv_rcounts       # negative recvcounts entry: segfault
    iallgatherv_rcounts      # same
    complete_none            # no epoch open: MPI_Win_complete/_wait succeed
    wait_none                # same
    flush_rank               # rank out of range: MPI_ERR_INTERN, and the window then hangs in MPI_Win_unlock
    flush_local_rank         # rank out of range: crashes MPI_Win_flush_local
    iscatter_rcount          # recvcount -1: segfault (seen once in MPI_Iscatter)
    racc_fence               # request-based RMA in a fence epoch accepted (13.3.5: passive target only)
    rgacc_fence              # same
    rget_fence               # same
    rput_fence               # same
    gacc_rcount              # result_count -1 not checked
    rgacc_rcount             # same
    gacc_rtype               # result_datatype MPI_DATATYPE_NULL not checked
    rgacc_rtype              # same
    iscatter_scount          # sendcount -1 at the root: segfault
    scatter_scount           # same
    iscatter_stype           # sendtype MPI_DATATYPE_NULL at the root (comm size 1) accepted
    scatter_stype            # same
    acc_past_end             # target range past the window not checked: the access runs past it (guard page)
    acc_too_long             # same
    cas_past_end             # same
    fop_past_end             # same
    gacc_past_end            # same
    get_past_end             # same
    get_too_long             # same
    put_past_end             # same
    put_too_long             # same
    racc_past_end            # same
    racc_too_long            # same
    rgacc_past_end           # same
    rget_past_end            # same
    rget_too_long            # same
    rput_past_end            # same
    rput_too_long            # same
    allgather_runcommitted   # uncommitted recvtype accepted
    iallgather_runcommitted  # same
    comm_get_attr_kind      # another kind's keyval is accepted by MPI_Comm_get_attr (flag false)
    type_get_attr_kind      # same, MPI_Type_get_attr
    win_get_attr_kind       # same, MPI_Win_get_attr
    ssend_init_buf          # NULL buffer not checked by the persistent ssend/rsend/bsend initializers
    rsend_init_buf          # same
    bsend_init_buf          # same
    sendrecv_replace_buf    # NULL buffer: segfault in MPI_Sendrecv_replace's pack
    ssend_init_uncommitted  # uncommitted datatype: segfault in mca_pml_ob1_isend_init
    rsend_init_uncommitted  # same
    bsend_init_uncommitted  # same
    probe_comm              # MPI_COMM_NULL: the error is fatal despite MPI_ERRORS_RETURN
    iprobe_comm             # same
    mprobe_comm             # same
    improbe_comm            # same
    mrecv_message_null      # MPI_MESSAGE_NULL: the error is fatal despite MPI_ERRORS_RETURN
    imrecv_message_null     # same
    bsend_nobuf             # small MPI_Bsends succeed without an attached buffer
    ibsend_nobuf            # same
    start_bsend_nobuf       # same, MPI_Start of an MPI_Bsend_init request
    pack_size_incount       # a negative incount is not checked
    comm_create_group_group # MPI_GROUP_NULL is not checked by MPI_Comm_create_group
    translate_rank_range    # ranks1[i] out of range: segfault in ompi_group_translate_ranks
  )
fi
BAD_INPUT_CLASS_DIFFERS=$(IFS=,; echo "${differs[*]}")
BAD_INPUT_UNCHECKED=$(IFS=,; echo "${unchecked[*]}")
export BAD_INPUT_PEER=$peer BAD_INPUT_CLASS_DIFFERS BAD_INPUT_UNCHECKED

total0=$(now_ms)
for p in "${progs[@]}"; do
  t0=$(now_ms)
  timeout 120 "mpirun.$peer" -n 2 "$work/$p" > "$work/out" 2>&1
  rc=$?
  ms=$(( $(now_ms) - t0 ))
  if [ $rc -ne 0 ]; then
    cat "$work/out" >&2
    [ $rc -eq 124 ] && fail "$p: no result within 120 s (hang?)"
    fail "$p: exit status $rc after $ms ms"
  fi
  ok=$(grep -a "^ok: .* rows checked" "$work/out") || { cat "$work/out" >&2; fail "$p: exit 0 but no ok line"; }
  echo "ok: $p, $ms ms: $ok"
done
echo "all ${#progs[@]} bad-input catalogue programs pass against $peer ($(( ($(now_ms) - total0) / 1000 )) s)"
