package winproc

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Supported reports whether Job Objects exist here.
const Supported = true

// Job is a Job Object holding a server's process tree. Every process the
// server starts joins it (there is no breakaway); closing the last handle
// to it, which the system does when mcptui dies, kills them all.
type Job struct {
	h windows.Handle
}

// NewJob creates a job whose processes are killed when it is closed.
func NewJob() (*Job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("winproc: CreateJobObject: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(h)
		return nil, fmt.Errorf("winproc: SetInformationJobObject: %w", err)
	}
	return &Job{h: h}, nil
}

// Prepare makes cmd start suspended, so that Adopt can put it in the job
// before it runs a single instruction (and so before it can start a child
// outside the job).
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
}

// Adopt puts the process pid (started by Prepare's command, so suspended)
// in the job and lets it run.
func (j *Job) Adopt(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("winproc: OpenProcess %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(j.h, h); err != nil {
		return fmt.Errorf("winproc: AssignProcessToJobObject %d: %w", pid, err)
	}
	return resumeThreads(pid)
}

// resumeThreads resumes every thread of pid (a process created suspended
// has exactly one).
func resumeThreads(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("winproc: thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		th, oerr := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if oerr != nil {
			return fmt.Errorf("winproc: OpenThread %d: %w", te.ThreadID, oerr)
		}
		_, rerr := windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if rerr != nil {
			return fmt.Errorf("winproc: ResumeThread %d: %w", te.ThreadID, rerr)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("winproc: threads of %d: %w", pid, err)
	}
	if resumed == 0 {
		return fmt.Errorf("winproc: process %d has no thread to resume", pid)
	}
	return nil
}

// accounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type accounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

// Active is the number of the job's processes still running (-1 when it
// cannot be asked).
func (j *Job) Active() int {
	var a accounting
	if err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil); err != nil {
		return -1
	}
	return int(a.ActiveProcesses)
}

// PIDs are the ids of the job's running processes (at most 256).
func (j *Job) PIDs() []int {
	var list struct {
		Assigned, InList uint32
		IDs              [256]uintptr
	}
	if err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil); err != nil && !errors.Is(err, windows.ERROR_MORE_DATA) {
		return nil
	}
	pids := make([]int, 0, list.InList)
	for _, id := range list.IDs[:min(int(list.InList), len(list.IDs))] {
		pids = append(pids, int(id))
	}
	return pids
}

// ProcessName is the executable name of pid ("" when unknown).
func ProcessName(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_PATH)
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &n); err != nil {
		return ""
	}
	name := windows.UTF16ToString(buf[:n])
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '\\' {
			return name[i+1:]
		}
	}
	return name
}

// Terminate ends every process of the job, with exit status code.
func (j *Job) Terminate(code uint32) error {
	if err := windows.TerminateJobObject(j.h, code); err != nil {
		return fmt.Errorf("winproc: TerminateJobObject: %w", err)
	}
	return nil
}

// Close closes mcptui's handle to the job, which kills whatever of it
// still runs.
func (j *Job) Close() error {
	if j == nil || j.h == 0 {
		return nil
	}
	err := windows.CloseHandle(j.h)
	j.h = 0
	if err != nil {
		return fmt.Errorf("winproc: closing the job: %w", err)
	}
	return nil
}

// Apply sets c on cmd: Path, Args and, for a batch file, the command line.
func Apply(cmd *exec.Cmd, c Command) {
	cmd.Path = c.Path
	cmd.Args = c.Args
	if c.CmdLine != "" {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.CmdLine = c.CmdLine
	}
}
