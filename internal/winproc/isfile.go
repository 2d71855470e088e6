package winproc

import "os"

// Environ is the lookup environment of this process, with dir as the
// directory a relative command resolves against.
func Environ(dir string) Env {
	return Env{
		Path:    os.Getenv("PATH"),
		PathExt: os.Getenv("PATHEXT"),
		ComSpec: os.Getenv("COMSPEC"),
		Dir:     dir,
		IsFile:  isFile,
	}
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
